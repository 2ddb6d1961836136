# A CPU seat's name is made where it is shown, in the reader's language, from its number
# and level. Past CPU seats get their number from the name they were stored under
# ("CPU 2 (Steady)", or "CPU 2 (Constante)" when a Spanish page added it); a name of
# another shape gets the seat's place among the room's CPU seats.

import re

from django.db import migrations, models

NUMBERED = re.compile(r"^CPU (\d+)\b")


def number_cpu_seats(apps, schema_editor):
    Seat = apps.get_model("rooms", "Seat")
    cpus = Seat.objects.exclude(cpu_level="").filter(cpu_number__isnull=True)
    places: dict[int, int] = {}
    for seat in cpus.order_by("room_id", "pk").only("pk", "room_id", "nickname"):
        places[seat.room_id] = places.get(seat.room_id, 0) + 1
        found = NUMBERED.match(seat.nickname)
        number = int(found.group(1)) if found else places[seat.room_id]
        Seat.objects.filter(pk=seat.pk).update(cpu_number=min(number, 32767))


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0015_quick_races"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="cpu_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_cpu_seats, migrations.RunPython.noop),
    ]

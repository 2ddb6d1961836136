# A player who chose no name sits as "Player 12", named where shown in the reader's
# language from the seat's guest_number. Past seats stored under such a name ("Player 12",
# or "Jugador 12" when a Spanish page seated them) get the number their name carries, when
# it is their player's own.

import re

from django.db import migrations, models

NAMELESS = re.compile(r"^(?:Player|Jugador) (\d+)$")


def number_guest_seats(apps, schema_editor):
    Seat = apps.get_model("rooms", "Seat")
    humans = Seat.objects.filter(cpu_level="", player__isnull=False, guest_number__isnull=True)
    for seat in humans.filter(nickname__regex=r"^(Player|Jugador) [0-9]+$").only(
        "pk", "player_id", "nickname"
    ):
        number = int(NAMELESS.match(seat.nickname).group(1))
        if number == seat.player_id:
            Seat.objects.filter(pk=seat.pk).update(guest_number=number, nickname=f"Player {number}")


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0016_seat_cpu_number"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="guest_number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(number_guest_seats, migrations.RunPython.noop),
    ]

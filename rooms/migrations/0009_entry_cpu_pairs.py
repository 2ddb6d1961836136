# Each board counts the pairs a CPU made on it; past boards get theirs from their moves.

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery


def count_cpu_pairs(apps, schema_editor):
    Entry = apps.get_model("rooms", "Entry")
    Move = apps.get_model("rooms", "Move")
    by_cpu = (
        Move.objects.filter(entry=OuterRef("pk"), kind="pair", by_cpu=True)
        .values("entry")
        .annotate(n=Count("pk"))
        .values("n")
    )
    helped = Move.objects.filter(kind="pair", by_cpu=True).values("entry")
    Entry.objects.filter(pk__in=helped).update(cpu_pairs=Subquery(by_cpu))


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0008_shuffle_seed"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="cpu_pairs",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(count_cpu_pairs, migrations.RunPython.noop),
    ]

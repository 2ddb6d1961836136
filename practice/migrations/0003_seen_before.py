# A game of a deal its player had opened before is marked; past games from their order.

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_seen_before(apps, schema_editor):
    SoloGame = apps.get_model("practice", "SoloGame")
    earlier = SoloGame.objects.filter(
        player=OuterRef("player"), code=OuterRef("code"), started_at__lt=OuterRef("started_at")
    )
    SoloGame.objects.filter(Exists(earlier)).update(seen_before=True)


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0002_move_times"),
    ]

    operations = [
        migrations.AddField(
            model_name="sologame",
            name="seen_before",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_seen_before, migrations.RunPython.noop),
    ]

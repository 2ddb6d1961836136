from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("practice", "0008_quick_ghost_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="sologame",
            name="played_offline",
            field=models.BooleanField(default=False),
        ),
    ]

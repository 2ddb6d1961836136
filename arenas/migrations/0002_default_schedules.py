# A new site has arenas from its first hour (docs/RULES.md §Arenas): an Easy arena every
# hour at :00 for 30 minutes and a Hard one every day at 20:00 UTC for 60. Admins edit,
# pause or delete them in the Django admin; a site that already has schedules keeps its own.

from django.db import migrations

DEFAULTS = [
    {"name": "Hourly Easy", "level": "easy", "every": "hour", "at_minute": 0, "minutes": 30},
    {
        "name": "Evening Hard",
        "level": "hard",
        "every": "day",
        "at_hour": 20,
        "at_minute": 0,
        "minutes": 60,
        "ahead_minutes": 24 * 60,  # listed a day ahead, so "next" always shows it
    },
]


def seed_schedules(apps, schema_editor):
    schedules = apps.get_model("arenas", "ArenaSchedule").objects
    if not schedules.exists():
        for fields in DEFAULTS:
            schedules.create(**fields)


class Migration(migrations.Migration):
    dependencies = [("arenas", "0001_initial")]

    operations = [migrations.RunPython(seed_schedules, migrations.RunPython.noop)]

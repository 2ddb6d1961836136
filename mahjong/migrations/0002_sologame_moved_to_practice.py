# SoloGame now belongs to the "practice" app (practice/migrations/0001_initial.py takes
# it over with its table); the table stays, only Django's picture of the models changes.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('mahjong', '0001_initial'),
        ('practice', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='SoloGame')],
            database_operations=[],
        ),
    ]

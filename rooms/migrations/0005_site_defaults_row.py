# The site defaults' one row exists from the start, so reading it never writes.

from django.db import migrations


def make_row(apps, schema_editor):
    apps.get_model("rooms", "SiteDefaults").objects.get_or_create(pk=1)


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0004_one_pair_per_number'),
    ]

    operations = [migrations.RunPython(make_row, migrations.RunPython.noop)]

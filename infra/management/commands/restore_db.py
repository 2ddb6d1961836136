"""`manage.py restore_db FILE`: put a backup of `backup_db` back (docs/OPERATIONS.md
§Backups: stop the site first, then migrate)."""

from django.core.management.base import BaseCommand, CommandError

from infra.backups import BackupError
from infra.restore import restore


class Command(BaseCommand):
    help = (
        "Restore a backup (.dump into PostgreSQL, .sqlite3 into SQLite) into an empty"
        " database: the site's, or the one --database-url names."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a backup from BACKUP_DIR")
        parser.add_argument(
            "--database-url", help="restore there instead of into the site's DATABASE_URL"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="drop the tables the database has first (only with the site stopped)",
        )

    def handle(self, *args, file, database_url, replace, **options):
        try:
            done = restore(file, database_url=database_url, replace=replace)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(done)

"""`manage.py backup_db`: back the database up now, as the nightly task does."""

from django.core.management.base import BaseCommand, CommandError

from infra.backups import BackupError, take_backup


class Command(BaseCommand):
    help = (
        "Back the database up into BACKUP_DIR now (PostgreSQL: pg_dump --format=custom;"
        " SQLite: its online backup API) and keep the newest BACKUP_KEEP backups."
    )

    def add_arguments(self, parser):
        parser.add_argument("--keep", type=int, help="how many backups to keep (BACKUP_KEEP)")

    def handle(self, *args, keep, **options):
        try:
            backup = take_backup(keep=keep)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"backup {backup.describe()}")
        return str(backup.path)

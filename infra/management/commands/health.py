"""`manage.py health [PART ...]`: exit 0 when the parts are up (container healthchecks)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from infra import health


class Command(BaseCommand):
    help = "Check the database, Redis, the worker and the scheduler; exit 1 if one is down."

    def add_arguments(self, parser):
        parser.add_argument("parts", nargs="*", metavar="PART", help=", ".join(health.CHECKS))

    def handle(self, *args, parts, **options):
        unknown = sorted(set(parts) - set(health.CHECKS))
        if unknown:
            known = ", ".join(health.CHECKS)
            raise CommandError(f"unknown part {', '.join(unknown)}; known: {known}")
        results = {name: health.run_check(name) for name in parts or health.REQUIRED}
        self.stdout.write(json.dumps(results))
        if not all(result["ok"] for result in results.values()):
            sys.exit(1)

"""How a test that commits (transactional_db, a live server) leaves the database: every
table emptied with DELETE in one transaction, instead of Django's `flush`.

Django's TransactionTestCase ends each test with `manage.py flush`: a TRUNCATE of every
table, then the post_migrate signal, which writes every content type and permission
again. On PostgreSQL that is ~200 ms a test, and the suite has hundreds of such tests;
these DELETEs of a test's few rows take ~5 ms. The content types and permissions are
kept rather than rewritten (they are the same rows either way), and Django's foreign
keys are DEFERRABLE INITIALLY DEFERRED on both PostgreSQL and SQLite, so the tables can
be emptied in any order within the one transaction."""

from django.db import connections, transaction
from django.test import TransactionTestCase

# Rows the migrations' post_migrate signal writes and a flush would write again.
KEPT = {"django_content_type", "auth_permission"}
_tables: dict[str, list[str]] = {}


def tables_to_empty(alias: str) -> list[str]:
    if alias not in _tables:
        names = connections[alias].introspection.django_table_names(
            only_existing=True, include_views=False
        )
        _tables[alias] = sorted(set(names) - KEPT)
    return _tables[alias]


def empty_every_table(alias: str) -> None:
    connection = connections[alias]
    quote = connection.ops.quote_name
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in tables_to_empty(alias):
            cursor.execute(f"DELETE FROM {quote(table)}")


def _fixture_teardown(self) -> None:
    for alias in self._databases_names(include_mirrors=False):
        empty_every_table(alias)


def install() -> None:
    """TestCase (rolled back, not emptied) has its own _fixture_teardown and is untouched;
    a test class that names available_apps or serialized_rollback keeps Django's."""
    original = TransactionTestCase._fixture_teardown

    def teardown(self):
        if self.available_apps is not None or self.serialized_rollback:
            return original(self)
        return _fixture_teardown(self)

    TransactionTestCase._fixture_teardown = teardown

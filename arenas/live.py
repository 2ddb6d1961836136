"""The arena page's live table: an arena's change is announced after commit to its
sockets' group (arenas/consumers.py), which each read the table again. The change itself
is in the database; a lost announcement is made good by the next one or a reconnect."""

from django.db import transaction

from infra import channels_send


def group_name(code: str) -> str:
    return f"arena-{code}"


def changed(code: str) -> None:
    """Announce, once the current transaction commits, that the arena's state changed."""
    transaction.on_commit(lambda: _send(code))


def _send(code: str) -> None:
    try:
        channels_send.group_send(group_name(code), {"type": "arena.changed"})
    except Exception as failure:  # noqa: BLE001 - the stored change stands; log and go on
        channels_send.logger.warning("an arena change could not be sent: %r", failure)

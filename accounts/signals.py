"""What accounts tell the apps built on them (accounts imports none of those apps).

`player_merged` is sent inside the merge's transaction, both players' rows locked: each
app that keeps rows of a player moves them from `device` to `account` in its own
actions (practice: solo games; rooms: seats, owned rooms, the ranked queue), so a
half-done merge is never seen.
"""

from django.dispatch import Signal

player_merged = Signal()  # keyword arguments: device, account (Player rows, locked)

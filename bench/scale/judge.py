"""What the clients of bench/scale's drills and chaos run saw, judged against the database.

Shared by drill.py (one fault in one race) and chaos.py (many faults over many races):

- `Ledger`: every pair a client sent and every pair the server acknowledged, by race and
  seat, with the time of the ack; `pairs_lost_and_doubled` then reads the stored moves.
  Lost: acknowledged and not stored. Doubled: a number stored twice (the database's own
  constraint refuses it: counted anyway, whatever path it came by), or a player's pair
  stored that the client never sent.
- `races_stuck`: races still running with nothing moving, CPU boards silent past what the
  sweeper allows, races past their cut-off still running.
- `Silence`: a room with live sockets must get an event (standings, a versioned event, a
  snapshot) within `seconds` of any pair acknowledged in it, on every socket open
  throughout; checked continuously while the run goes on.

Names of the database's rows are the site's (rooms.models); Django must be set up first
(bench/load/run.py does it with the topology's environment).
"""

import collections
import datetime
import time

from django.conf import settings
from django.db import connections
from django.db.models import Max

from rooms.models import Entry, Move, Race

STUCK_SECONDS = 10  # a running race with nothing stored for this long at the end is stuck


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100 * len(values)))]


class Ledger:
    """What the clients were told: (race id, nickname) -> pair numbers acknowledged (with
    the wall-clock time of each ack) and the highest number sent."""

    def __init__(self):
        self.acked = collections.defaultdict(dict)  # key -> {number: time of the ack}
        self.sent = collections.defaultdict(lambda: -1)  # key -> highest number sent

    def send(self, race_id, nickname, number):
        key = (race_id, nickname)
        self.sent[key] = max(self.sent[key], number)

    def ack(self, race_id, nickname, number, when=None):
        self.acked[(race_id, nickname)][number] = when or time.time()

    def count(self) -> int:
        return sum(len(numbers) for numbers in self.acked.values())


def pairs_lost_and_doubled(ledger: Ledger) -> tuple[list[tuple], list[tuple]]:
    """Lost: (race, nickname, number, time of its ack) acknowledged but stored nowhere.
    Doubled: (race, nickname, number, time stored) of a number stored twice on a board,
    or of a player's own pair with a number its client never sent."""
    lost, doubled = [], []
    races = {race_id for race_id, _ in ledger.acked} | {race_id for race_id, _ in ledger.sent}
    entries = Entry.objects.filter(race_id__in=races).select_related("seat")
    stored = collections.defaultdict(list)
    for race_id, nickname, number, by_cpu, at in Move.objects.filter(
        entry__in=entries, kind=Move.Kind.PAIR
    ).values_list("entry__race_id", "entry__seat__nickname", "number", "by_cpu", "at"):
        stored[(race_id, nickname)].append((number, by_cpu, at))
    for key in set(ledger.acked) | set(ledger.sent) | set(stored):
        moves = stored.get(key, [])
        numbers = collections.Counter(number for number, _, _ in moves)
        for number, when in ledger.acked.get(key, {}).items():
            if number not in numbers:
                lost.append((*key, number, when))
        for number, by_cpu, at in moves:
            if numbers[number] > 1 or (
                not by_cpu and key in ledger.sent and number > ledger.sent[key]
            ):
                doubled.append((*key, number, at.timestamp()))
    return lost, doubled


def stuck_race_ids(codes, end_of_play) -> list[int]:
    """Races still running whose last pair (a human's or a CPU's), or their go if none
    yet, is older than STUCK_SECONDS when play ended, and races still running past
    their cut-off by more than two sweeps: nothing moves in them any more."""
    since = end_of_play - datetime.timedelta(seconds=STUCK_SECONDS)
    late = end_of_play - datetime.timedelta(seconds=2 * settings.SWEEP_SECONDS + 5)
    races = Race.objects.filter(room__code__in=codes, status=Race.Status.RUNNING)
    return [
        race.pk
        for race in races.annotate(last=Max("entries__moves__at"))
        if max(filter(None, (race.last, race.go_at))) < since or race.cut_off_at < late
    ]


def races_stuck(codes, end_of_play) -> int:
    return len(stuck_race_ids(codes, end_of_play))


def wait_for_database(seconds=30):
    """Until the database answers again (a drill or a fault may have restarted it)."""
    connections.close_all()
    deadline = time.monotonic() + seconds
    while True:
        try:
            Race.objects.exists()
            return
        except Exception:  # noqa: BLE001 - still starting after a restart
            connections.close_all()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def cpu_boards_stuck(codes, end_of_play) -> int:
    """CPU boards (CPU seats, and humans' boards a stand-in plays) still playing in a
    running race but silent longer than the sweeper's restart allows
    (CPU_STALL_SECONDS + two sweeps + 5 s)."""
    allowed = settings.CPU_STALL_SECONDS + 2 * settings.SWEEP_SECONDS + 5
    allowed = datetime.timedelta(seconds=allowed)
    entries = Entry.objects.filter(
        race__room__code__in=codes, race__status=Race.Status.RUNNING, status=Entry.Status.PLAYING
    ).filter(seat__player__isnull=True) | Entry.objects.filter(
        race__room__code__in=codes,
        race__status=Race.Status.RUNNING,
        status=Entry.Status.PLAYING,
        cpu_control=True,
    )
    stuck = 0
    for entry in entries.select_related("race").annotate(last=Max("moves__at")):
        last = max(filter(None, (entry.last, entry.race.go_at, entry.cpu_kicked_at)))
        stuck += end_of_play - last > allowed
    return stuck


class Silence:
    """Continuously: after a pair is acknowledged in a room at time t, every socket of
    that room open since before t must hear an event of the room (standings, a versioned
    event, a snapshot) by t + seconds. Sockets report what they heard with `heard`;
    acks with `paired`; `check` (called often) records each miss once per socket and
    pair as (room, socket name, t) in `misses`."""

    def __init__(self, seconds=3.0):
        self.seconds = seconds
        self.acks = collections.defaultdict(collections.deque)  # room -> ack times
        self.sockets = collections.defaultdict(dict)  # room -> {name: socket}
        self.misses: list[tuple[str, str, float]] = []

    def join(self, code, name, sock):
        self.sockets[code][name] = sock

    def paired(self, code, when):
        self.acks[code].append(when)

    def check(self, now=None):
        now = now or time.time()
        for code, times in self.acks.items():
            while times and now - times[0] >= self.seconds:
                t = times.popleft()
                for name, sock in self.sockets[code].items():
                    # open throughout (connected before t, still open), heard nothing since
                    if sock.open_since is not None and sock.open_since < t and sock.last_event < t:
                        self.misses.append((code, name, t))

"""Benchmark: the leaderboards by period with 100,000 finished practice games in the
database. Not a test. Target (docs/PERFORMANCE.md §Leaderboards by period): every
period page in <= 100 ms server time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong_bench_lb DB_CONN_MAX_AGE=600 \\
        .venv/bin/python bench/leaderboards.py [--games 100000] [--requests 30]

Use a database of its own: the bench creates it when missing, migrates it, and fills it
once (a second run reuses the rows): 100,000 won practice games over 26 weeks by 3,000
players on the race levels' layouts and a few others (a fifth of them with a hint or a
deal seen before, some daily challenges among them, every day's deal played by about
60 players), 2,000 finished races of four seats, and 30,000 rating changes. Then it
times each period page in this process with Django's test client (server time: the
view, its queries and the template; no network) and prints a table: median and p99 over
the requests, and the page's number of SQL queries.
"""

import argparse
import datetime
import os
import random
import statistics
import string
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PLAYERS = 3_000
DAYS = 182  # 26 weeks back from today
RACES = 2_000
RATING_CHANGES = 30_000
DAILY_PLAYERS_A_DAY = 60
# Where the practice games are: the race levels' layouts mostly, a long tail of others.
LAYOUT_WEIGHTS = {1: 30, 2: 25, 3: 15, 4: 10, 0: 8, 11: 3, 12: 3, 20: 2, 21: 2, 30: 1, 40: 1}


def ensure_database() -> None:
    """Create the bench's database when it does not exist (PostgreSQL only)."""
    import psycopg

    url = urlparse(os.environ["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def fill(games: int) -> None:
    from django.utils import timezone

    from accounts.models import Player, Rating, RatingChange
    from mahjong.daily import daily_code
    from mahjong.rules import Level
    from practice.models import SoloGame
    from rooms.models import Entry, Race, Room, Seat

    done = SoloGame.objects.filter(status=SoloGame.Status.WON).count()
    rng = random.Random(2026)
    now = timezone.now()
    today = now.astimezone(datetime.UTC).date()
    started = time.perf_counter()
    players = Player.objects.bulk_create(
        Player(nickname=f"Bench-{n}") for n in range(PLAYERS - Player.objects.count())
    )
    players = list(Player.objects.all())
    layouts, weights = zip(*LAYOUT_WEIGHTS.items(), strict=True)

    def when(days_back_max=DAYS):
        return now - datetime.timedelta(seconds=rng.uniform(0, days_back_max * 86_400))

    batch = []
    daily_games = 0
    if done >= games:
        print(f"reusing {done} won games already stored")
        days_to_fill = 0
    else:
        days_to_fill = DAYS
    # The daily challenges: about 60 players a day, some twice (the second is practice).
    for back in range(days_to_fill):
        day = today - datetime.timedelta(days=back)
        code = daily_code(day)
        for who in rng.sample(players, DAILY_PLAYERS_A_DAY):
            for _try in range(1 + (rng.random() < 0.2)):
                start = datetime.datetime.combine(day, datetime.time(), tzinfo=datetime.UTC)
                start += datetime.timedelta(seconds=rng.uniform(0, 86_000))
                if start > now:
                    continue
                batch.append(game(who, code, 2, start, rng))
                daily_games += 1
    while len(batch) < games - done:
        layout = rng.choices(layouts, weights)[0]
        code = f"MJ1-L{layout:02d}-{''.join(rng.choices(string.ascii_uppercase, k=7))}"
        batch.append(game(rng.choice(players), code, layout, when(), rng))
    SoloGame.objects.bulk_create(batch, batch_size=5_000)
    if batch:
        print(
            f"stored {len(batch)} won games ({daily_games} daily)"
            f" in {time.perf_counter() - started:.0f} s"
        )
    if Race.objects.exists():
        print("reusing the races and ratings already stored")
        return

    owners = rng.sample(players, 200)
    rooms = Room.objects.bulk_create(
        Room(owner=owner, code=f"B{n:05d}") for n, owner in enumerate(owners)
    )
    seats, races, entries = [], [], []
    for room in rooms:
        seats.extend(
            Seat(room=room, player=who, nickname=who.nickname) for who in rng.sample(players, 4)
        )
    Seat.objects.bulk_create(seats)
    by_room = {}
    for seat in seats:
        by_room.setdefault(seat.room_id, []).append(seat)
    levels = [level for level, _label in Level.choices]
    for n in range(RACES):
        room = rooms[n % len(rooms)]
        end = when()
        races.append(
            Race(
                room=room,
                number=n // len(rooms) + 1,
                rules={"level": rng.choice(levels), "time_limit_minutes": 10},
                status=Race.Status.FINISHED,
                started_at=end - datetime.timedelta(minutes=6),
                go_at=end - datetime.timedelta(minutes=5),
                time_limit_at=end + datetime.timedelta(minutes=5),
                cut_off_at=end + datetime.timedelta(minutes=6),
                finished_at=end,
            )
        )
    Race.objects.bulk_create(races)
    for race in races:
        for place, seat in enumerate(by_room[race.room_id], start=1):
            entries.append(
                Entry(
                    race=race,
                    seat=seat,
                    level=race.rules["level"],
                    code=f"MJ1-L01-BENCH{place:02d}",
                    faces=[],
                    alive="0",
                    tile_count=34,
                    status=Entry.Status.FINISHED,
                    finished_ms=rng.randrange(40_000, 700_000),
                    place=place,
                )
            )
    Entry.objects.bulk_create(entries, batch_size=5_000)

    changes, value = [], {}
    for n in range(RATING_CHANGES):
        who = rng.choice(players)
        before = value.get(who.pk, 1500.0)
        after = before + rng.uniform(-20, 20)
        value[who.pk] = after
        deviation = max(60.0, 350 - 15 * sum(1 for c in changes[-50:] if c.player_id == who.pk))
        changes.append(
            RatingChange(
                player=who,
                before=before,
                after=after,
                deviation_before=deviation,
                deviation=rng.choice([deviation, rng.uniform(60, 109)]),
                place=1,
                field_size=2,
                race_ref=n,
                created_at=when(),
            )
        )
    RatingChange.objects.bulk_create(changes, batch_size=5_000)
    Rating.objects.bulk_create(
        Rating(player_id=pk, value=v, deviation=rng.uniform(60, 200), games=10)
        for pk, v in value.items()
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"filled in {time.perf_counter() - started:.0f} s")


def game(who, code, layout, finished_at, rng):
    from practice.models import SoloGame

    time_ms = rng.randrange(25_000, 900_000)
    return SoloGame(
        player=who,
        code=code,
        layout_number=layout,
        tile_count=34,
        status=SoloGame.Status.WON,
        moves=[],
        elapsed_ms=time_ms,
        time_ms=time_ms,
        hints_used=1 if rng.random() < 0.12 else 0,
        seen_before=rng.random() < 0.08,
        pace_flagged=rng.random() < 0.005,
        started_at=finished_at - datetime.timedelta(milliseconds=time_ms),
        finished_at=finished_at,
    )


def pages() -> list[tuple[str, str]]:
    from django.utils import timezone

    from records import periods
    from records.periods import Kind
    from records.wording import url_of

    today = timezone.now().astimezone(datetime.UTC).date()
    old = today - datetime.timedelta(days=90)
    return [
        ("all time", url_of(periods.ALL_TIME)),
        ("today", url_of(periods.containing(Kind.DAY, today))),
        ("this week", url_of(periods.containing(Kind.WEEK, today))),
        ("this month", url_of(periods.containing(Kind.MONTH, today))),
        ("a day 90 days ago", url_of(periods.containing(Kind.DAY, old))),
        ("a week 90 days ago", url_of(periods.containing(Kind.WEEK, old))),
        ("a month 90 days ago", url_of(periods.containing(Kind.MONTH, old))),
    ]


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def measure(requests: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{requests} requests a page, after 3 warm-up requests; server time in ms")
    print("(wall: the whole request; cpu: this process's own CPU time, the database's apart)")
    print(
        f"{'page':<20} {'address':<31} {'median':>7} {'p99':>7} {'cpu med':>8}"
        f" {'cpu p99':>8} {'queries':>8}"
    )
    for name, url in pages():
        for _ in range(3):
            assert client.get(url).status_code == 200, url
        times, cpu = [], []
        for _ in range(requests):
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        print(
            f"{name:<20} {url:<31} {statistics.median(times):>7.1f} "
            f"{percentile(times, 0.99):>7.1f} {statistics.median(cpu):>8.1f}"
            f" {percentile(cpu, 0.99):>8.1f} {len(queries):>8}"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    if "bench" not in urlparse(os.environ.get("DATABASE_URL", "")).path:
        sys.exit("Set DATABASE_URL to a database of the bench's own, e.g. .../mahjong_bench_lb")
    ensure_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from infra import embedded_redis
    from infra.env import env

    if not env("REDIS_URL"):  # the cache keeps past days' daily first wins
        embedded_redis.ensure_running(settings.VAR_DIR / "redis")  # stopped at exit

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the pages name hashed files
    fill(args.games)
    measure(args.requests)


if __name__ == "__main__":
    main()

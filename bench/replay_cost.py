"""Benchmark: the replay of a full race — 20 seats on the turtle (Hard with flowers, 144
tiles), every board cleared — as the server builds it and as a browser scrubs it. Not a
test. Targets (docs/PERFORMANCE.md §Replays): the page in ≤ 300 ms server time and
≤ 150 KB transferred; scrubbing redraws within one frame (16.7 ms).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mahjong .venv/bin/python \\
        bench/replay_cost.py [--requests 30] [--site http://127.0.0.1:8000]

It stores one race in that database, then times the page's view and the JSON API in this
process (Django's test client: server time only, no network). With --site (the same
database, started with bin/run) it also loads the page in Chromium, measuring the bytes
on the wire (bench/page_weight.py) and the time of 200 timeline jumps.
"""

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Player  # noqa: E402
from rooms.core.boards import deal_for  # noqa: E402
from rooms.lobby import actions as lobby  # noqa: E402
from rooms.models import Race  # noqa: E402
from rooms.race import actions as races  # noqa: E402

SEATS = 20


def full_race():
    """20 humans clear the turtle, each at a pace of their own (2.5–6 s a pair)."""
    players = [Player.objects.create() for _ in range(SEATS)]
    room = lobby.create_room(players[0], "Seat 1")
    for n, player in enumerate(players[1:], start=2):
        lobby.join_room(player, room.code, f"Seat {n}")
    lobby.update_rules(players[0], room.code, {"level": "hard", "flowers": True})
    race = races.start_race(players[0], room.code, now=timezone.now() - timedelta(hours=1))
    for k, player in enumerate(players):
        entry = race.entries.get(seat__player=player)
        pace = 2.5 + 3.5 * k / SEATS
        for n, pair in enumerate(deal_for(entry.code).plan):
            at = race.go_at + timedelta(seconds=pace * (n + 1))
            races.play_pair(player, room.code, sorted(pair), n, now=at)
    race.refresh_from_db()
    assert race.status == "finished", race.status
    return race


def timed(client, url: str, requests: int) -> tuple[list[float], int]:
    times, size = [], 0
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url, headers={"host": "127.0.0.1"})
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
        size = len(response.content)
    return times, size


def row(name: str, times: list[float], size: int) -> str:
    p99 = statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]
    return f"{name:<28} {statistics.median(times):>9.1f} {p99:>9.1f} {size:>10,}"


def in_browser(site: str, race_id: int) -> None:
    from playwright.sync_api import sync_playwright

    from bench.page_weight import CHROMIUM_ARGS, measure, report

    url = f"{site}/replays/race/{race_id}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        report(url, measure(browser, url))
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        jumps = page.evaluate(
            """(count) => {
              const line = document.getElementById("timeline");
              const max = Number(line.max), out = [];
              for (let k = 0; k < count; k++) {
                const start = performance.now();
                line.value = String(Math.floor(Math.random() * max));
                line.dispatchEvent(new Event("input"));
                document.body.offsetHeight; // style and layout included
                out.push(performance.now() - start);
              }
              return out;
            }""",
            200,
        )
        print(f"\n{'timeline jump (ms)':<28} {'median':>9} {'p99':>9}")
        print(row("20 turtle boards", jumps, 0)[:48])
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--site", help="a running site on the same database (bin/run)")
    parser.add_argument("--race", type=int, help="a race stored by an earlier run")
    args = parser.parse_args()
    random.seed(1)
    race = Race.objects.get(pk=args.race) if args.race else full_race()
    client = Client()
    print(f"race {race.pk}: {SEATS} boards of {race.entries.first().tile_count} tiles cleared")
    print(f"{'server time (ms)':<28} {'median':>9} {'p99':>9} {'bytes':>10}")
    urls = {"page": f"/replays/race/{race.pk}/", "JSON": f"/replays/race/{race.pk}.json"}
    for name, url in urls.items():
        times, size = timed(client, url, args.requests)
        print(row(name, times, size))
    if args.site:
        in_browser(args.site.rstrip("/"), race.pk)
    return 0


if __name__ == "__main__":
    sys.exit(main())

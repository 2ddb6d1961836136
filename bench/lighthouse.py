"""Lighthouse scores of the site's pages, mobile preset (docs/PERFORMANCE.md §Lighthouse).
Not a test (tests/browser/test_lighthouse.py checks one page against the threshold).

Starts the site itself as production serves it (DEBUG=0, the static files collected
with their hashed names, uvicorn in a thread, a throwaway SQLite database and the
embedded Redis in a temporary VAR_DIR unless DATABASE_URL / REDIS_URL say otherwise),
makes a race that is running and a won practice game to replay, then runs the pinned
Lighthouse (package.json: `npm ci` installs it) with Debian's Chromium on each page and
prints its four scores, out of 100:

    .venv/bin/python bench/lighthouse.py [--runs 1] [--out /tmp/lighthouse]
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_var = tempfile.mkdtemp(prefix="lighthouse-")
os.environ.setdefault("VAR_DIR", _var)
os.environ.setdefault("STATIC_ROOT", str(Path(_var) / "static"))
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECURE_COOKIES", "0")  # plain HTTP on the loopback
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import uvicorn  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from infra import embedded_redis  # noqa: E402
from infra.env import env  # noqa: E402
from tests.browser.test_lighthouse import (  # noqa: E402
    CATEGORIES,
    LIGHTHOUSE,
    THRESHOLD,
    multiplier_for,
    run_lighthouse,
)


def lighthouse(url: str, out: Path) -> dict:
    """Lighthouse on `url` (mobile): a first run at the preset's 4x CPU slowdown and, on
    a host slower than Lighthouse's reference, a second calibrated to the index the first
    measured (tests/browser/test_lighthouse.py says why); the last run's scores."""
    out.parent.mkdir(parents=True, exist_ok=True)
    run = run_lighthouse(url, out, 4.0)
    multiplier = multiplier_for(run["benchmark_index"])
    if multiplier < 4.0:
        run = run_lighthouse(url, out.with_suffix(".calibrated.json"), multiplier)
    return run


def start_server() -> str:
    """The site on a free port, in a thread of this process (as tests/conftest.py)."""
    if not env("REDIS_URL"):
        embedded_redis.ensure_running(settings.VAR_DIR / "redis")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from config.asgi import application

    config = uvicorn.Config(application, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the site did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return f"http://127.0.0.1:{port}"


def pages() -> dict[str, str]:
    """The five pages, by what they show: a race that is running (watched by a
    visitor, as Lighthouse comes without a cookie) and a won game's replay among them."""
    from accounts.models import Player
    from mahjong.engine.deal import deal_from_code
    from practice import actions as practice
    from rooms.lobby import actions as lobby
    from rooms.race import actions as races

    settings.RACE_COUNTDOWN_SECONDS = 0
    settings.PAIR_FLOOR_MS = 0
    ana, bo = Player.objects.create(), Player.objects.create()
    room = lobby.create_room(ana, "Ana")
    lobby.join_room(bo, room.code, "Bo")
    races.start_race(ana, room.code, seed=7)
    code = "MJ1-L01-AAAASGV"
    game = practice.start_game(ana, code)
    for n, (i, j) in enumerate(deal_from_code(code).plan):
        practice.play_pair(ana, game.pk, i, j, n)
    return {
        "/": "/",
        "/play/": "/play/",
        "/rooms/<code>/ (a race running)": f"/rooms/{room.code}/",
        "/replays/game/<id>/": f"/replays/game/{game.pk}/",
        "/layouts/": "/layouts/",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median is shown)")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "lighthouse")
    parser.add_argument("--only", help="one page's path, e.g. /layouts/")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print("Lighthouse is missing: npm ci (package.json pins it)", file=sys.stderr)
        return 1
    base = start_server()
    print(f"Lighthouse 12 (mobile preset), {args.runs} run(s) a page, median; {base}")
    print(f"| page | {' | '.join(CATEGORIES)} | host index | CPU slowdown |")
    print(f"|---|{'---|' * (len(CATEGORIES) + 2)}")
    low = False
    for label, path in pages().items():
        if args.only and path != args.only:
            continue
        stem = path.strip("/").replace("/", "_") or "home"
        runs = [lighthouse(base + path, args.out / f"{stem}-{k}.json") for k in range(args.runs)]
        scores = {
            name: int(statistics.median(run["scores"][name] for run in runs)) for name in CATEGORIES
        }
        index = int(statistics.median(run["benchmark_index"] for run in runs))
        slowdown = statistics.median(run["cpu_multiplier"] for run in runs)
        low |= any(score < THRESHOLD for score in scores.values())
        cells = " | ".join(str(scores[name]) for name in CATEGORIES)
        print(f"| `{label}` | {cells} | {index} | {slowdown}x |", flush=True)
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())

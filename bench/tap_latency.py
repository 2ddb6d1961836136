"""Tap latency: from a tap's pointerup to the start of the pair's removal animation, in
the browser (docs/PRACTICE.md §Tap latency). Not a test.

The board (mahjong/static/mahjong/board.js) plays a tap at its pointerup and measures
with the Performance API, from the pointerup event's timeStamp:
  mj-input-delay     -> its handler ran (every tap; the browser's share: a busy main
                        thread, input queued behind a frame)
  mj-tap-to-removal  -> the pair's removal animation started (taps that remove a pair)
  mj-tap-to-frame    -> the start of the first frame drawn after it
This script starts the site itself (uvicorn in a thread, a SQLite database and the
embedded Redis in a throwaway VAR_DIR unless DATABASE_URL / REDIS_URL say otherwise),
plays whole turtles by taps in headless Chromium (a phone with touch, and a laptop
with a mouse) and prints median, p95 and p99 in ms. Budget: p95 <= 16 ms.

    .venv/bin/python bench/tap_latency.py [--games 2]
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("VAR_DIR", tempfile.mkdtemp(prefix="tap-latency-"))
os.environ.setdefault("DEBUG", "1")  # static files from the apps: no collectstatic needed
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
warnings.filterwarnings("ignore", message="StreamingHttpResponse")  # DEBUG's static files

import django  # noqa: E402

django.setup()

import uvicorn  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from infra import embedded_redis  # noqa: E402
from infra.env import env  # noqa: E402
from mahjong.engine.deal import deal_from_code  # noqa: E402

TURTLE_CODES = ["MJ1-L00-AAAAABL", "MJ1-L00-AAAAAAL", "MJ1-L00-AAAAACL"]
BUDGET_MS = 16
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
DEVICES = {
    "phone 390x844, touch": {"viewport": {"width": 390, "height": 844}, "has_touch": True},
    "phone, reduced motion": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "reduced_motion": "reduce",
    },
    "laptop 1280x800, mouse": {"viewport": {"width": 1280, "height": 800}},
}
MEASURES = ("mj-input-delay", "mj-tap-to-removal", "mj-tap-to-frame")


def start_server() -> str:
    """The site on a free port, in a thread of this process (as tests/conftest.py)."""
    if not env("REDIS_URL"):
        embedded_redis.ensure_running(settings.VAR_DIR / "redis")
    call_command("migrate", verbosity=0)
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


def play(page, url: str, code: str, touch: bool) -> dict[str, list[float]]:
    """Play the deal's winning plan by taps; the board's measures, in ms."""
    page.goto(f"{url}/play/{code}/")
    deal = deal_from_code(code)
    page.locator(".tile").first.wait_for()
    page.evaluate("performance.clearMeasures()")
    for pair in deal.plan:
        for index in pair:
            x, y, z = deal.layout.positions[index]
            tile = page.locator(f".tile[data-x='{x}'][data-y='{y}'][data-z='{z}']")
            if touch:
                tile.tap()
            else:
                tile.click()
    page.wait_for_timeout(300)  # the last frame measure
    return {
        name: page.evaluate(f"performance.getEntriesByName('{name}').map(m => m.duration)")
        for name in MEASURES
    }


def blank_page_floor(browser, touch: bool) -> list[float]:
    """The same browser's input delay on a page with one button and nothing else: the
    floor no board can go under on this machine."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=touch)
    page = context.new_page()
    page.set_content(
        "<button id=b style='width:200px;height:200px'>tap</button><script>window.d = [];"
        "b.addEventListener('pointerup', e => d.push(performance.now() - e.timeStamp))</script>"
    )
    for _ in range(100):
        page.locator("#b").tap() if touch else page.locator("#b").click()
    found = page.evaluate("d")
    context.close()
    return found


def board_share(found: dict[str, list[float]]) -> list[float]:
    """Per removal: its tap's handler to the removal started (removal minus that tap's
    input delay; the second tap of each pair is the one that removes)."""
    second_taps = found["mj-input-delay"][1::2]
    return [r - d for r, d in zip(found["mj-tap-to-removal"], second_taps, strict=False)]


def row(device: str, name: str, values: list[float]) -> str:
    return (
        f"{device:<24} {name:<21} {len(values):>5} {statistics.median(values):>7.2f}"
        f" {percentile(values, 0.95):>7.2f} {percentile(values, 0.99):>7.2f}"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="turtles per device (max 3)")
    games = TURTLE_CODES[: max(1, min(3, parser.parse_args().games))]
    url = start_server()
    ok = True
    print(f"{'device':<24} {'measure':<21} {'taps':>5} {'median':>7} {'p95':>7} {'p99':>7}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        for device, options in DEVICES.items():
            touch = options.get("has_touch", False)
            context = browser.new_context(**options)
            page = context.new_page()
            found = {name: [] for name in MEASURES}
            for code in games:
                for name, values in play(page, url, code, touch).items():
                    found[name] += values
            context.close()
            if not all(found.values()):
                print(f"{device:<24} no measures")
                ok = False
                continue
            for name, values in found.items():
                print(row(device, name, values))
            print(row(device, "board's share", board_share(found)))
            ok = ok and percentile(found["mj-tap-to-removal"], 0.95) <= BUDGET_MS
        for device, touch in (("blank page, touch", True), ("blank page, mouse", False)):
            print(row(device, "input delay (floor)", blank_page_floor(browser, touch)))
        browser.close()
    print(f"budget: p95 of mj-tap-to-removal <= {BUDGET_MS} ms: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Page weight of the practice page: every byte a first visit transfers, by resource.

Usage: start the site (bin/run), then
    .venv/bin/python bench/page_weight.py [URL ...]
Default URL: http://127.0.0.1:8000/play/MJ1-L00-AAAAABL/ (the turtle, the largest board).
Budget: 150 KB transferred per page, no third-party hosts (docs/PRACTICE.md §Page weight).
"""

import sys
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

BUDGET_BYTES = 150 * 1024
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def measure(browser, url: str) -> list[tuple[str, int]]:
    """(url, bytes on the wire incl. headers) for every response of a cold load."""
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    urls, sizes = {}, {}
    cdp.on(
        "Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(500)
    context.close()
    return [(urls[key], size) for key, size in sizes.items() if key in urls]


def report(url: str, rows: list[tuple[str, int]]) -> bool:
    host = urlsplit(url).netloc
    total = sum(size for _, size in rows)
    foreign = [u for u, _ in rows if urlsplit(u).netloc not in (host, "")]
    print(f"\n{url}")
    print(f"{'resource':<60} {'bytes':>9}")
    for resource, size in sorted(rows, key=lambda r: -r[1]):
        print(f"{urlsplit(resource).path[:60]:<60} {size:>9,}")
    print(f"{'total (' + str(len(rows)) + ' requests)':<60} {total:>9,}  budget {BUDGET_BYTES:,}")
    print(f"third-party hosts: {sorted(set(urlsplit(u).netloc for u in foreign)) or 'none'}")
    return total <= BUDGET_BYTES and not foreign


def main(urls: list[str]) -> int:
    urls = urls or ["http://127.0.0.1:8000/play/MJ1-L00-AAAAABL/"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        ok = all([report(url, measure(browser, url)) for url in urls])
        browser.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

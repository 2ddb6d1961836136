"""Draw the app's icons (docs/ARCHITECTURE.md §Installable and offline): one SVG of our
own, a tile with the one of circles on the felt, rasterised by Debian's Chromium to the
PNG sizes a web app manifest wants (192 and 512 px, and a maskable 512 px whose tile
keeps inside the central safe circle). Run after changing the drawing:

    .venv/bin/python tools/make_icons.py
"""

import os
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "mahjong" / "static" / "mahjong" / "icons"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FELT, FELT_DARK, CREAM, EDGE, RED, GREEN, BLUE = (
    "#1f5f46", "#174a36", "#fbf7ea", "#b9a477", "#c0392b", "#1f5f46", "#2b5d9b",
)  # fmt: skip


def tile(scale: float) -> str:
    """A tile centred on a 512-wide square, `scale` of its full size: its edge, its face
    and the one of circles (three rings and a centre)."""
    w, h = 300 * scale, 380 * scale
    x, y = 256 - w / 2, 256 - h / 2
    lift = 22 * scale
    r = 34 * scale
    cx, cy = x + w / 2 - lift / 2, y + h / 2 - lift / 2
    rings = "".join(
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius * scale:.1f}" fill="none" '
        f'stroke="{colour}" stroke-width="{width * scale:.1f}"/>'
        for radius, colour, width in ((104, RED, 26), (68, GREEN, 20), (36, BLUE, 18))
    )
    box = f'width="{w:.1f}" height="{h:.1f}" rx="{r:.1f}"'
    centre = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{12 * scale:.1f}" fill="{RED}"/>'
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" {box} fill="{EDGE}"/>'
        f'<rect x="{x - lift:.1f}" y="{y - lift:.1f}" {box} fill="{CREAM}"/>{rings}{centre}'
    )


def svg(maskable: bool) -> str:
    # "any": a rounded felt square; maskable: full bleed, the tile within the safe 80 %.
    background = (
        f'<rect width="512" height="512" fill="{FELT}"/>'
        if maskable
        else f'<rect width="512" height="512" rx="96" fill="{FELT}"/>'
        f'<rect x="16" y="16" width="480" height="480" rx="84" fill="none" '
        f'stroke="{FELT_DARK}" stroke-width="12"/>'
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f"{background}{tile(0.78 if maskable else 1.0)}</svg>\n"
    )


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    drawings = {"icon.svg": svg(False), "icon-maskable.svg": svg(True)}
    for name, text in drawings.items():
        (OUT / name).write_text(text)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for source, size, target in (
            ("icon.svg", 192, "icon-192.png"),
            ("icon.svg", 512, "icon-512.png"),
            ("icon-maskable.svg", 512, "icon-maskable-512.png"),
            ("icon-maskable.svg", 180, "apple-touch-icon.png"),
        ):
            page = browser.new_page(viewport={"width": size, "height": size})
            body = drawings[source].replace("<svg ", f'<svg width="{size}" height="{size}" ')
            page.set_content(f"<style>body{{margin:0}}svg{{display:block}}</style>{body}")
            page.screenshot(path=str(OUT / target), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

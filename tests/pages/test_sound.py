"""Sound (mahjong/static/mahjong/sound.js): synthesised with Web Audio, off until the
player turns it on in Settings, remembered, and cheap to load on every page.
In Chromium: tests/browser/test_sound_browser.py."""

from pathlib import Path

SOUND_JS = Path(__file__).resolve().parents[2] / "mahjong/static/mahjong/sound.js"


def test_the_sound_script_is_a_few_kilobytes():
    assert SOUND_JS.stat().st_size < 6000

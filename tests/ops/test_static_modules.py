"""Collected for production, the browser's ES modules import each other by their hashed
names (infra/static_storage.py): a page loading `board.<hash>.js` must not fetch a second,
unhashed copy of `rules.js` or `sound.js` (two sound players, stale code after a deploy)."""

import re

from django.core.management import call_command
from django.test import override_settings


def test_collected_modules_import_each_other_by_their_hashed_names(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
    boards = [
        p
        for p in (tmp_path / "mahjong").glob("board.*.js")
        if re.match(r"board\.[0-9a-f]{12}\.js$", p.name)
    ]
    assert len(boards) == 1
    imports = re.findall(r'from "([^"]+)"', boards[0].read_text())
    assert imports and all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imports), imports
    race = next(
        p
        for p in (tmp_path / "rooms").glob("race.*.js")
        if re.match(r"race\.[0-9a-f]{12}\.js$", p.name)
    )
    assert re.search(r'from "\.\./mahjong/board\.[0-9a-f]{12}\.js"', race.read_text())

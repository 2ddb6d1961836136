import json
import subprocess
import sys
from pathlib import Path

import pytest

from mahjong.engine import deal_from_code

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "mahjong.engine", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def ok(*args, stdin=None):
    done = cli(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_deal_by_code_matches_the_library():
    out = ok("deal", "--code", "MJ1-L00-AAAAABL")
    deal = deal_from_code("MJ1-L00-AAAAABL")
    assert out["code"] == "MJ1-L00-AAAAABL" and out["layout"] == "turtle"
    assert len(out["tiles"]) == 144 and set(out["tiles"][0]) == {"x", "y", "z", "face"}
    assert out["plan"] == [list(p) for p in deal.plan]


def test_deal_by_layout_free_hint_solve_and_shuffle_chain_together():
    out = ok("deal", "--layout", "beginner", "--flowers", "--seed", "12")
    assert out["code"] == "MJ1-L11-AAAAAAM" and len(out["tiles"]) == 42
    position = json.dumps({"tiles": out["tiles"]})
    assert ok("free", stdin=position)["free"]
    hinted = ok("hint", stdin=position)
    assert hinted["winning"] is True and len(hinted["pair"]) == 2
    solved = ok("solve", "--limit", "5", stdin=position)
    assert solved["solvable"] is True and len(solved["plan"]) == 21
    assert set(solved) == {"solvable", "plan", "nodes", "seconds"}


def test_random_and_shuffle_of_a_blocked_position():
    out = ok("random", "--layout", "turtle", "--seed", "4")
    assert len(out["tiles"]) == 144
    stuck = {
        "tiles": [
            {"x": 0, "y": 0, "z": 0, "face": "1B"},
            {"x": 0, "y": 0, "z": 1, "face": "2B"},
            {"x": 4, "y": 0, "z": 0, "face": "2B"},
            {"x": 4, "y": 0, "z": 1, "face": "1B"},
        ]
    }
    shuffled = ok("shuffle", "--seed", "3", stdin=json.dumps(stuck))
    assert len(shuffled["tiles"]) == 4 and len(shuffled["plan"]) == 2


def test_a_layout_file_path_is_accepted(tmp_path):
    path = tmp_path / "row.layout"
    path.write_text("kmahjongg-layout-v1.1\nw8\nh2\nd1\n12121212\n43434343\n")
    out = ok("deal", "--layout", str(path), "--seed", "1")
    assert out["code"] is None and out["layout"] == "row" and len(out["plan"]) == 2


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (["deal", "--code", "MJ1-L00-AAAA"], None, "malformed game code"),
        (["deal", "--layout", "nowhere"], None, "unknown layout"),
        (["free"], "{not json", "bad JSON"),
        (["free"], '{"tiles": [{"x": 0, "y": 0, "z": 0, "face": "9Z"}]}', "unknown face"),
        (
            ["solve"],
            '{"tiles": [{"x":0,"y":0,"z":0,"face":"1B"},{"x":1,"y":0,"z":0,"face":"1B"}]}',
            "impossible position",
        ),
        (["bogus"], None, "invalid choice"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(args, stdin, fragment):
    done = cli(*args, stdin=stdin or "")
    assert done.returncode != 0 and done.stdout == ""
    assert fragment in done.stderr and done.stderr.count("\n") == 1

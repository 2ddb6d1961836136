"""Named helpers for solo-practice tests: a device with its own client, and known deals."""

import json

from mahjong.engine.deal import deal_from_code
from mahjong.engine.tiles import faces_match

BEGINNER_CODE = "MJ1-L01-AAAASGV"  # 34 tiles
TURTLE_CODE = "MJ1-L00-AAAAABL"


class Device:
    """One browser's worth of cookies, talking to the practice endpoints."""

    def __init__(self, client):
        self.client = client

    def open(self, code=None):
        url = f"/play/{code}/" if code else "/play/"
        response = self.client.get(url)
        self.state = response.context["state"] if response.context else None
        return response

    def post(self, action, **body):
        response = self.client.post(
            f"/play/api/{action}", json.dumps(body), content_type="application/json"
        )
        return response.status_code, response.json()

    def move(self, i, j, n=None, game=None):
        n = len(self.state["removed"]) if n is None else n
        status, answer = self.post("move", game=game or self.state["id"], tiles=[i, j], n=n)
        if status == 200:
            self.state = answer
        return status, answer


def plan_of(code):
    return deal_from_code(code).plan


def win(device: Device, hints: int = 0) -> dict:
    """The device's game played to its win by the deal's plan, after asking for `hints`
    hints first; every pair acknowledged. The last state (with the win's result)."""
    for _ in range(hints):
        status, answer = device.post("hint", game=device.state["id"])
        assert status == 200, answer
    for i, j in plan_of(device.state["code"]):
        status, state = device.move(i, j)
        assert status == 200, state
    return state


def blocked_pair(code):
    """A matching pair of the deal's first position in which one tile is not free."""
    position = deal_from_code(code).start()
    free = set(position.free_tiles())
    faces = position.faces
    for i in range(len(faces)):
        if i in free:
            continue
        for j in free:
            if faces_match(faces[i], faces[j]):
                return j, i
    raise AssertionError("no blocked matching pair at the start")


def unmatched_free_pair(code):
    """Two free tiles of the deal's first position that do not match."""
    position = deal_from_code(code).start()
    free = position.free_tiles()
    for i in free:
        for j in free:
            if not faces_match(position.faces[i], position.faces[j]):
                return i, j
    raise AssertionError("every free tile matches every other")


def moves_to_a_dead_end(code):
    """Legal pairs from the start of the deal that end blocked with tiles left, or None."""
    start = deal_from_code(code).start()
    budget = [20000]

    def search(position, path):
        budget[0] -= 1
        if budget[0] < 0 or position.is_won():
            return None
        if position.is_blocked():
            return path
        for pair in reversed(position.playable_pairs()):
            found = search(position.remove(*pair), [*path, pair])
            if found:
                return found
        return None

    return search(start, [])

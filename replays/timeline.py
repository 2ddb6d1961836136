"""A finished race as a replay: every board's deal and timed moves, rebuilt by the engine
from the stored moves — the same functions that refereed them — so a replay that would
not be legal cannot be shown (docs/ARCHITECTURE.md §Replays; format in docs/PROTOCOL.md
§Replays).

Read only. While a race runs its boards stay hidden: everyone has the same deal.
"""

from mahjong.deals import deal_for
from mahjong.engine.layout import bits
from mahjong.engine.position import Position
from mahjong.engine.shuffle import ShuffleError
from mahjong.engine.shuffle import shuffle as engine_shuffle
from mahjong.engine.tiles import FACES
from practice.models import SoloGame
from rooms.models import Entry, Move, Race


class NotReplayable(Exception):
    """The stored moves do not rebuild the stored board (or predate replays)."""


def race_replay(race: Race) -> dict:
    """The replay of a finished race as JSON-ready data (the caller checks it finished)."""
    moves = _moves_by_entry(race)
    entries = race.entries.select_related("seat").order_by("place", "pk")
    players = [_player(race, entry, moves.get(entry.pk, [])) for entry in entries]
    return {
        "race": {
            "id": race.pk,
            "room": race.room.code,
            "number": race.number,
            "rules": race.rules,
            "go_at": race.go_at.isoformat(),
            "length_ms": _ms(race, race.finished_at),
        },
        "deals": {code: deal_json(code) for code in sorted({p["code"] for p in players})},
        "players": players,
    }


def game_replay(game: SoloGame) -> dict:
    """The replay of a practice game that is over (won or left), in the shape of a race
    with one board: its pairs as they stood at the end (undone ones are gone), each at
    its time on the game's clock."""
    if len(game.move_ms) != len(game.moves):
        raise NotReplayable("the game was played before replays kept each pair's time")
    position = deal_for(game.code).start()
    events = []
    for n, ((i, j), t) in enumerate(zip(game.moves, game.move_ms, strict=True)):
        position = _removed(position, i, j, f"pair {n}")
        events.append([t, "pair", i, j, 0])
    won = game.status == SoloGame.Status.WON
    length = game.time_ms if won else (events[-1][0] if events else 0)
    player = {
        "seat": None,
        "nickname": game.player.display_name,
        "cpu": None,
        "code": game.code,
        "status": "finished" if won else "gave_up",
        "finished_ms": game.time_ms if won else None,
        "ended_ms": length,
        "place": 1 if won else None,
        "points": None,
        "pairs": len(events),
        "cpu_pairs": 0,
        "stand_in_ms": None,
        "events": events,
    }
    return {
        "game": {
            "id": game.pk,
            "code": game.code,
            "layout": game.layout_number,
            "hints_used": game.hints_used,
            "undos_used": game.undos_used,
            "length_ms": length,
        },
        "deals": {game.code: deal_json(game.code)},
        "players": [player],
    }


def deal_json(code: str) -> dict:
    deal = deal_for(code)
    return {
        "tiles": [[x, y, z] for x, y, z in deal.layout.positions],
        "faces": [FACES[face] for face in deal.faces],
    }


def _moves_by_entry(race: Race) -> dict[int, list[Move]]:
    found: dict[int, list[Move]] = {}
    for move in Move.objects.filter(entry__race=race).order_by("pk"):
        found.setdefault(move.entry_id, []).append(move)
    return found


def _player(race: Race, entry: Entry, moves: list[Move]) -> dict:
    events = _rebuild(race, entry, moves)
    return {
        "seat": entry.seat_id,
        "nickname": entry.seat.name,  # a CPU's or a nameless player's in the reader's language
        "cpu": entry.seat.cpu_level or None,
        "code": entry.code,
        "status": entry.status,
        "finished_ms": entry.finished_ms,
        # When the board stopped: its finish, or the give-up (its last action).
        "ended_ms": entry.finished_ms or _ms(race, entry.last_action_at),
        "place": entry.place,
        "points": float(entry.points) if entry.points is not None else None,
        "pairs": entry.pairs_removed,
        # As in the results: a stand-in's pairs on a human's board (a CPU seat's own
        # pairs are its play, not help; docs/RULES.md §Leaving).
        "cpu_pairs": 0 if entry.seat.is_cpu else entry.cpu_pairs,
        "stand_in_ms": None if entry.seat.is_cpu else _stand_in_ms(race, entry, events),
        "events": events,
    }


def _stand_in_ms(race: Race, entry: Entry, events: list[list]) -> int | None:
    """When a stand-in first played this human's board: its takeover (the chain's start,
    `cpu_kicked_at`) when that came before its first pair, else that first pair (a later
    takeover moved `cpu_kicked_at` on). None when no stand-in made a pair here."""
    first_pair = next((e[0] for e in events if e[1] == "pair" and e[4]), None)
    if first_pair is None:
        return None
    kicked = _ms(race, entry.cpu_kicked_at)
    return kicked if kicked is not None and kicked <= first_pair else first_pair


def _rebuild(race: Race, entry: Entry, moves: list[Move]) -> list[list]:
    """Play the moves again on the deal; each becomes an event [ms since go, kind, …]:
    [t, "pair", i, j, by_cpu] or [t, "shuffle", faces, positions or None]."""
    position = deal_for(entry.code).start()
    events = []
    for move in moves:
        t = _ms(race, move.at)
        if move.kind == Move.Kind.PAIR:
            i, j = move.tiles
            position = _removed(position, i, j, f"{entry.seat.nickname}'s pair {move.number}")
            events.append([t, "pair", i, j, int(move.by_cpu)])
        else:
            shuffled = _shuffled(entry, move, position)
            position = shuffled.position
            # Tiles move only in a rare shuffle (a flattened board): then their places too.
            places = [list(p) for p in position.layout.positions] if shuffled.moved else None
            events.append([t, "shuffle", [FACES[face] for face in position.faces], places])
    if list(position.faces) != list(entry.faces) or bits(position.alive) != bits(
        int(entry.alive, 16)
    ):
        raise NotReplayable(f"{entry.seat.nickname}'s moves do not rebuild the stored board")
    return events


def _removed(position: Position, i: int, j: int, which: str) -> Position:
    """The pair taken off as the referee did, or the replay refused: it would not be legal."""
    ok, reason = position.can_remove(i, j)
    if not ok:
        raise NotReplayable(f"{which}: {reason}")
    return position.remove(i, j)


def _shuffled(entry: Entry, move: Move, position: Position):
    if move.seed is None:
        raise NotReplayable("the race was played before replays kept each shuffle")
    try:
        return engine_shuffle(position, seed=move.seed)
    except ShuffleError as error:
        raise NotReplayable(f"{entry.seat.nickname}'s shuffle: {error}") from None


def _ms(race: Race, moment) -> int | None:
    if moment is None or race.go_at is None:
        return None
    return max(0, round((moment - race.go_at).total_seconds() * 1000))

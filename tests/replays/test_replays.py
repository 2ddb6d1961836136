"""Race replays (docs/ARCHITECTURE.md §Replays): rebuilt by the engine from the stored
moves, only once the race is over, the same boards the race ended with."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.identity import COOKIE_NAME, signed_token
from accounts.models import Player
from mahjong.deals import deal_for
from mahjong.engine.layout import bits
from mahjong.engine.position import Position
from mahjong.engine.tiles import FACES
from practice import actions as practice_actions
from practice.models import SoloGame
from rooms.core.serializers import results_json
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move
from rooms.race import actions as races
from rooms.race import cpu_seats
from tests.practice.practice_helpers import moves_to_a_dead_end
from tests.records.test_stand_in_records import stand_in_plays_on
from tests.rooms.rooms_helpers import room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()
BEGINNER_SEED = 12345  # MJ1-L01-AAAASGV, which has dead ends


def a_finished_race(checkpoints: list | None = None):
    """Ana shuffles out of a dead end then gives up, a CPU makes three pairs, Bo clears
    the board. `checkpoints` gets (seat, ms after go, tiles left, faces) read from the
    database along the way."""
    checkpoints = [] if checkpoints is None else checkpoints
    room, (ana, bo) = room_with("Ana", "Bo", cpus=("steady",))
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    race = races.start_race(ana, room.code, now=T0, seed=BEGINNER_SEED)
    go = race.go_at

    def check(entry, seconds):
        entry.refresh_from_db()
        alive = bits(int(entry.alive, 16))
        checkpoints.append((entry.seat_id, seconds * 1000, alive, [FACES[f] for f in entry.faces]))

    ana_entry = race.entries.get(seat__player=ana)
    dead_end = moves_to_a_dead_end(ana_entry.code)
    for n, pair in enumerate(dead_end):
        races.play_pair(ana, room.code, list(pair), n, now=go + timedelta(seconds=2 + n))
    check(ana_entry, 2 + len(dead_end))
    races.shuffle(ana, room.code, now=go + timedelta(seconds=32))
    check(ana_entry, 32)
    races.give_up(ana, room.code, now=go + timedelta(seconds=42))
    cpu_entry = race.entries.get(seat__cpu_level="steady")
    for step in (1, 2, 3):
        cpu_seats.cpu_act(
            None, room.code, cpu_entry.seat_id, step, now=go + timedelta(seconds=5 * step)
        )
    check(cpu_entry, 15)
    bo_entry = race.entries.get(seat__player=bo)
    for n, pair in enumerate(deal_for(bo_entry.code).plan):
        races.play_pair(bo, room.code, sorted(pair), n, now=go + timedelta(seconds=2 + 3 * n))
        if n == 7:
            check(bo_entry, 2 + 3 * n)
    race.refresh_from_db()
    return race


STAND_IN_AT = 20  # seconds after go: a stand-in takes Ana's board, Bo has finished


def a_race_a_stand_in_helped():
    """Ana makes three pairs and goes away; Bo clears the board by 0:18; at 0:20 a
    stand-in takes Ana's board and plays it to its end. A steady CPU seat plays too."""
    room, (ana, bo) = room_with("Ana", "Bo", cpus=("steady",))
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    race = races.start_race(ana, room.code, now=T0, seed=BEGINNER_SEED)
    go = race.go_at
    ana_entry = race.entries.get(seat__player=ana)
    for n, pair in enumerate(deal_for(ana_entry.code).plan[:3]):
        races.play_pair(ana, room.code, sorted(pair), n, now=go + timedelta(seconds=1 + n))
    cpu_entry = race.entries.get(seat__cpu_level="steady")
    for step in (1, 2):
        cpu_seats.cpu_act(
            None, room.code, cpu_entry.seat_id, step, now=go + timedelta(seconds=4 * step)
        )
    bo_entry = race.entries.get(seat__player=bo)
    for n, pair in enumerate(deal_for(bo_entry.code).plan):
        races.play_pair(bo, room.code, sorted(pair), n, now=go + timedelta(seconds=2 + n))
    ana_entry.refresh_from_db()
    stand_in_plays_on(ana_entry, go + timedelta(seconds=STAND_IN_AT))
    race.refresh_from_db()
    return race


def replay_of(client, race):
    return client.get(f"/replays/race/{race.pk}.json")


def test_a_finished_race_replays_to_exactly_the_boards_it_ended_with(client):
    race = a_finished_race()
    assert race.status == "finished"
    answer = replay_of(client, race)
    assert answer.status_code == 200
    replay = answer.json()
    for player in replay["players"]:
        entry = Entry.objects.get(race=race, seat_id=player["seat"])
        deal = replay["deals"][player["code"]]
        faces, alive = list(deal["faces"]), set(range(len(deal["tiles"])))
        for event in player["events"]:
            if event[1] == "pair":
                alive -= {event[2], event[3]}
            else:
                faces = event[2]
        assert faces == [FACES[f] for f in entry.faces]
        assert sorted(alive) == bits(int(entry.alive, 16))
        assert (player["status"], player["place"]) == (entry.status, entry.place)
    ana = next(p for p in replay["players"] if p["nickname"] == "Ana")
    assert [e[1] for e in ana["events"]].count("shuffle") == 1
    assert ana["status"] == "gave_up" and ana["ended_ms"] == 42_000


def boards_at(player: dict, deal: dict, t: int) -> tuple[list[int], list[str]]:
    """The tiles left and the faces of a replayed board at `t` ms, from its events."""
    faces, alive = list(deal["faces"]), set(range(len(deal["tiles"])))
    for event in player["events"]:
        if event[0] > t:
            break
        if event[1] == "pair":
            alive -= {event[2], event[3]}
        else:
            faces = event[2]
    return sorted(alive), faces


def test_a_replay_shows_each_board_as_the_database_held_it_along_the_way(client):
    checkpoints = []
    race = a_finished_race(checkpoints)
    replay = replay_of(client, race).json()
    players = {p["seat"]: p for p in replay["players"]}
    assert len({seat for seat, *_ in checkpoints}) == 3  # Ana, the CPU and Bo
    for seat, t, alive, faces in checkpoints:
        player = players[seat]
        assert boards_at(player, replay["deals"][player["code"]], t) == (alive, faces)
    cpu = next(p for p in replay["players"] if p["cpu"])
    assert cpu["pairs"] == 3


def test_cpu_pairs_are_a_stand_ins_pairs_on_a_human_board_never_a_cpu_seats_own(client):
    race = a_race_a_stand_in_helped()
    assert race.status == "finished"
    players = {p["nickname"]: p for p in replay_of(client, race).json()["players"]}
    ana, bo, cpu = players["Ana"], players["Bo"], next(p for p in players.values() if p["cpu"])
    assert cpu["pairs"] > 0 and cpu["cpu_pairs"] == 0 and cpu["stand_in_ms"] is None
    assert ana["status"] == "finished"
    assert ana["cpu_pairs"] == ana["pairs"] - 3 > 0
    assert (bo["cpu_pairs"], bo["stand_in_ms"]) == (0, None)
    # The help starts at the takeover, before the stand-in's first pair.
    first_cpu_pair = min(e[0] for e in ana["events"] if e[1] == "pair" and e[4])
    assert ana["stand_in_ms"] == STAND_IN_AT * 1000 < first_cpu_pair
    assert {r["nickname"]: r["cpu_pairs"] for r in results_json(race)} == {
        p["nickname"]: p["cpu_pairs"] for p in players.values()
    }


def test_every_move_of_a_replay_is_legal_for_the_engine_in_order(client):
    replay = replay_of(client, a_finished_race()).json()
    for player in replay["players"]:
        position = deal_for(player["code"]).start()
        times = [e[0] for e in player["events"]]
        assert times == sorted(times)
        for event in player["events"]:
            if event[1] == "pair":
                assert position.can_remove(event[2], event[3])[0]
                position = position.remove(event[2], event[3])
            else:
                faces = tuple(FACES.index(f) for f in event[2])
                assert sorted(faces) == sorted(position.faces)  # a shuffle only moves faces
                position = Position(position.layout, faces, position.alive)


def test_a_running_race_has_no_replay_and_leaks_no_face(client):
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, now=T0)
    answer = replay_of(client, race)
    assert answer.status_code == 404
    assert "not finished" in answer.json()["error"]
    assert "faces" not in answer.content.decode()


def test_a_race_whose_stored_board_differs_from_its_moves_is_refused(client):
    race = a_finished_race()
    entry = race.entries.get(seat__nickname="Bo")
    Move.objects.filter(entry=entry).order_by("-pk").first().delete()
    answer = replay_of(client, race)
    assert answer.status_code == 409
    assert "Bo" in answer.json()["error"]


def test_an_unknown_race_is_a_clear_404(client):
    answer = client.get("/replays/race/999999.json")
    assert answer.status_code == 404 and answer.json() == {"error": "no such race"}


# --- practice games ----------------------------------------------------------------------
def a_won_game_with_an_undo():
    player = Player.objects.create(nickname="Cleo")
    game = practice_actions.start_game(player, "MJ1-L01-AAAASGV")
    plan = deal_for(game.code).plan
    practice_actions.play_pair(player, game.pk, *plan[0], 0)
    practice_actions.play_pair(player, game.pk, *plan[1], 1)
    practice_actions.undo(player, game.pk, 2)
    for n, pair in enumerate(plan[1:], start=1):
        practice_actions.play_pair(player, game.pk, *pair, n)
    game.refresh_from_db()
    return game


def test_a_won_practice_game_replays_its_pairs_at_their_clock_times(client):
    game = a_won_game_with_an_undo()
    assert game.status == "won"
    answer = client.get(f"/replays/game/{game.pk}.json")
    assert answer.status_code == 200
    replay = answer.json()
    (player,) = replay["players"]
    assert [e[2:4] for e in player["events"]] == game.moves  # the undone pair is gone
    times = [e[0] for e in player["events"]]
    assert times == sorted(times) and times[-1] <= game.time_ms
    assert (player["nickname"], player["status"], player["finished_ms"]) == (
        "Cleo",
        "finished",
        game.time_ms,
    )
    page = client.get(f"/replays/game/{game.pk}/")
    assert page.status_code == 200 and "MJ1-L01-AAAASGV" in page.content.decode()


def test_a_game_still_played_or_from_before_move_times_is_not_replayed(client):
    player = Player.objects.create()
    game = practice_actions.start_game(player, "MJ1-L01-AAAASGV")
    assert client.get(f"/replays/game/{game.pk}.json").status_code == 404
    old = a_won_game_with_an_undo()
    SoloGame.objects.filter(pk=old.pk).update(move_ms=[])  # as stored before replays
    answer = client.get(f"/replays/game/{old.pk}.json")
    assert answer.status_code == 409 and "time" in answer.json()["error"]
    page = client.get(f"/replays/game/{old.pk}/").content.decode()
    assert 'id="replay-error">This cannot be replayed: ' in page  # a sentence on the page


def test_the_records_profile_and_leaderboards_link_to_the_replays(client):
    game = a_won_game_with_an_undo()
    client.cookies[COOKIE_NAME] = signed_token(game.player.device_token)
    records = client.get("/records/").content.decode()
    assert f'href="/replays/game/{game.pk}/"' in records
    race = a_finished_race()
    bo = race.entries.get(seat__nickname="Bo").seat.player
    profile = client.get(f"/players/{bo.pk}/").content.decode()
    assert f'href="/replays/race/{race.pk}/"' in profile
    boards = client.get("/leaderboards/").content.decode()
    assert f'href="/replays/race/{race.pk}/"' in boards

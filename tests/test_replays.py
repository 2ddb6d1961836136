"""Race replays (docs/ARCHITECTURE.md §Replays): rebuilt by the engine from the stored
moves, only once the race is over, the same boards the race ended with."""

from datetime import timedelta

import pytest
from django.utils import timezone

from mahjong.deals import deal_for
from mahjong.engine.layout import bits
from mahjong.engine.position import Position
from mahjong.engine.tiles import FACES
from rooms import lobby, races
from rooms.models import Entry, Move
from tests.practice_helpers import moves_to_a_dead_end
from tests.rooms_helpers import room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()
BEGINNER_SEED = 12345  # MJ1-L01-AAAASGV, which has dead ends


def a_finished_race():
    """Ana shuffles out of a dead end then gives up, Bo clears the board, a CPU plays."""
    room, (ana, bo) = room_with("Ana", "Bo", cpus=("steady",))
    lobby.update_rules(ana, room.code, {"level": "beginner"})
    race = races.start_race(ana, room.code, now=T0, seed=BEGINNER_SEED)
    now = race.go_at + timedelta(seconds=2)
    ana_entry = race.entries.get(seat__player=ana)
    for n, pair in enumerate(moves_to_a_dead_end(ana_entry.code)):
        races.play_pair(ana, room.code, list(pair), n, now=now + timedelta(seconds=n))
    races.shuffle(ana, room.code, now=now + timedelta(seconds=30))
    races.give_up(ana, room.code, now=now + timedelta(seconds=40))
    bo_entry = race.entries.get(seat__player=bo)
    for n, pair in enumerate(deal_for(bo_entry.code).plan):
        races.play_pair(bo, room.code, sorted(pair), n, now=now + timedelta(seconds=3 * n))
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

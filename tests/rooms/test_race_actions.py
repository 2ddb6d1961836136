"""Rooms and races through rooms.lobby.actions, rooms.race.actions and rooms.race.end, with an
injected clock (docs/RULES.md §Races)."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from accounts.models import Player
from rooms.core.boards import deal_for, position_of
from rooms.lobby import actions as lobby
from rooms.models import Entry, Move, Race, SiteDefaults
from rooms.race import actions as races
from rooms.race import end as race_end
from tests.practice.practice_helpers import moves_to_a_dead_end
from tests.rooms.rooms_helpers import (
    everyone_ready,
    first_plan_pair,
    refusal,
    refused,
    room_with,
    started,
)

pytestmark = pytest.mark.django_db
BEGINNER_SEED = 12345  # MJ1-L01-AAAASGV, which has dead ends


def entry_of(race, player):
    return race.entries.get(seat__player=player)


def test_a_new_room_starts_from_the_site_defaults():
    defaults = SiteDefaults.load()
    defaults.level, defaults.hints = "medium", 5
    defaults.save()
    room, _ = room_with("Ana")
    assert (room.level, room.hints, room.shuffles) == ("medium", 5, 3)


def test_the_matching_tiles_helper_is_a_room_rule_the_race_keeps_from_its_start():
    room, (owner,) = room_with("Ana")
    assert room.show_matches is False  # off as shipped: a helper the owner allows
    refusal("bad_rules", lobby.update_rules, owner, room.code, {"show_matches": "yes"})
    lobby.update_rules(owner, room.code, {"show_matches": True})
    race, _ = started(room, owner)
    assert race.rules["show_matches"] is True


def test_a_room_holds_twenty_seats_and_refuses_the_twenty_first():
    room, (owner,) = room_with("Ana")
    for k in range(19):
        lobby.join_room(Player.objects.create(), room.code, f"P{k}")
    message = refused("room_full", lobby.join_room, Player.objects.create(), room.code, "Late")
    assert "full" in message


def test_joining_twice_keeps_one_seat_and_a_bad_code_is_refused():
    room, (owner, guest) = room_with("Ana", "Bo")
    assert lobby.join_room(guest, room.code, "Bo") == room.seats.get(player=guest)
    refused("no_room", lobby.join_room, guest, "NOPE42", "Bo")
    refused("bad_nickname", lobby.join_room, Player.objects.create(), room.code, "   ")


@pytest.mark.parametrize(
    "changes, fragment",
    [
        ({"shuffles": 11}, "shuffles"),
        ({"hints": -1}, "hints"),
        ({"time_limit_minutes": 7}, "time limit"),
        ({"level": "expert"}, "level"),
        ({"flowers": "yes"}, "flowers"),
        ({"idle_limit_seconds": 45}, "idle limit"),
        ({"colour": "red"}, "unknown rule colour"),
        ({}, "send the rules"),
    ],
)
def test_out_of_range_rules_are_refused_and_change_nothing(changes, fragment):
    room, (owner,) = room_with("Ana")
    message = refused("bad_rules", lobby.update_rules, owner, room.code, changes)
    assert fragment in message
    room.refresh_from_db()
    assert room.rules() == SiteDefaults.load().rules()


def test_only_the_owner_sets_rules_and_never_during_a_race():
    room, (owner, guest) = room_with("Ana", "Bo")
    refused("not_owner", lobby.update_rules, guest, room.code, {"hints": 1})
    lobby.update_rules(owner, room.code, {"hints": 1, "level": "beginner"})
    started(room, owner)
    refused("race_running", lobby.update_rules, owner, room.code, {"hints": 2})


def test_everyone_on_a_level_gets_the_same_deal_and_cpus_get_boards():
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["steady"])
    race, _ = started(room, owner)
    codes = set(race.entries.values_list("code", flat=True))
    assert len(codes) == 1 and race.entries.count() == 3


def test_a_pair_before_go_is_refused():
    room, (owner,) = room_with("Ana")
    race, _ = started(room, owner)
    pair = first_plan_pair(entry_of(race, owner))
    refused(
        "too_early",
        races.play_pair,
        owner,
        room.code,
        pair,
        0,
        now=race.go_at - timedelta(milliseconds=1),
    )


def test_a_legal_pair_is_stored_and_a_retry_is_not_counted_twice():
    room, (owner, guest) = room_with("Ana", "Bo")
    race, now = started(room, owner)
    pair = first_plan_pair(entry_of(race, owner))
    races.play_pair(owner, room.code, pair, 0, now=now)
    entry = races.play_pair(owner, room.code, pair, 0, now=now)
    assert entry.pairs_removed == 1 and entry.moves.count() == 1
    refused("stale", races.play_pair, owner, room.code, pair, 5, now=now)


def test_the_database_itself_refuses_a_second_pair_with_the_same_number():
    room, (owner,) = room_with("Ana")
    race, now = started(room, owner)
    entry = races.play_pair(owner, room.code, first_plan_pair(entry_of(race, owner)), 0, now=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(entry=entry, number=0, tiles=[1, 2], at=now)
    assert entry.moves.count() == 1


def test_an_illegal_pair_is_refused_with_the_engines_reason():
    room, (owner,) = room_with("Ana")
    race, now = started(room, owner)
    position = position_of(entry_of(race, owner))
    blocked = next(i for i in position.alive_tiles() if not position.is_free(i))
    free = position.free_tiles()[0]
    message = refused("illegal", races.play_pair, owner, room.code, [free, blocked], 0, now=now)
    assert "not free" in message
    assert entry_of(race, owner).pairs_removed == 0


def test_hints_are_limited_by_the_rules():
    room, (owner,) = room_with("Ana")
    lobby.update_rules(owner, room.code, {"hints": 1})
    race, now = started(room, owner)
    pair, hints_left = races.use_hint(owner, room.code, now=now)
    assert position_of(entry_of(race, owner)).can_remove(*pair)[0]
    assert hints_left == 0
    refused("no_hints", races.use_hint, owner, room.code, now=now)


def test_shuffle_only_while_blocked_and_the_penalty_pause_holds_moves():
    room, (owner,) = room_with("Ana")
    lobby.update_rules(owner, room.code, {"shuffle_penalty_seconds": 10, "level": "beginner"})
    race, now = started(room, owner, seed=BEGINNER_SEED)
    refused("not_blocked", races.shuffle, owner, room.code, now=now)
    play_into_a_dead_end(room, owner, entry_of(race, owner), now)
    entry = races.shuffle(owner, room.code, now=now)
    assert entry.shuffles_used == 1 and entry.penalty_until == now + timedelta(seconds=10)
    assert sorted(entry.faces) == sorted(Entry.objects.get(pk=entry.pk).faces)
    pair = _any_pair(entry)
    refused("penalty", races.play_pair, owner, room.code, pair, entry.pairs_removed, now=now)
    later = now + timedelta(seconds=11)
    assert races.play_pair(owner, room.code, pair, entry.pairs_removed, now=later)


def play_into_a_dead_end(room, player, entry, now):
    for n, pair in enumerate(moves_to_a_dead_end(entry.code)):
        races.play_pair(player, room.code, list(pair), n, now=now)


def _any_pair(entry):
    return list(position_of(Entry.objects.get(pk=entry.pk)).playable_pairs()[0])


def test_the_race_ends_when_every_human_is_done_even_if_cpus_play_on():
    room, (owner, guest) = room_with("Ana", "Bo", cpus=["sharp"])
    race, now = started(room, owner)
    races.give_up(guest, room.code, now=now)
    assert Race.objects.get(pk=race.pk).status == Race.Status.RUNNING
    for n, pair in enumerate(deal_for(entry_of(race, owner).code).plan):
        races.play_pair(owner, room.code, list(pair), n, now=now + timedelta(seconds=n))
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    places = {e.seat.nickname: (e.place, float(e.points)) for e in race.entries.all()}
    assert places["Ana"] == (1, 2.0)
    assert places["Bo"][0] == 3  # gave up: last, behind the CPU still playing
    refused("no_race", races.play_pair, owner, room.code, [0, 1], 0, now=now)


def test_the_cut_off_closes_the_race_and_refuses_late_actions():
    room, (owner,) = room_with("Ana")
    race, now = started(room, owner)
    assert not race_end.close_if_due(room.code, now=race.cut_off_at - timedelta(seconds=1))
    refusal("race_over", races.play_pair, owner, room.code, [0, 1], 0, now=race.cut_off_at)
    assert Race.objects.get(pk=race.pk).status == Race.Status.FINISHED


def test_the_winner_gets_a_harder_deal_next_time_with_the_handicap():
    room, (owner, guest) = room_with("Ana", "Bo")
    lobby.update_rules(owner, room.code, {"handicap": True, "level": "beginner"})
    race, now = started(room, owner)
    races.give_up(guest, room.code, now=now)
    for n, pair in enumerate(deal_for(entry_of(race, owner).code).plan):
        races.play_pair(owner, room.code, list(pair), n, now=now)
    everyone_ready(owner, room.code, now=now)
    second, _ = started(room, owner, at=now + timedelta(minutes=1))
    assert entry_of(second, owner).level == "easy"
    assert entry_of(second, guest).level == "beginner"


def test_running_races_keep_their_rules_when_defaults_change():
    room, (owner,) = room_with("Ana")
    race, _ = started(room, owner)
    defaults = SiteDefaults.load()
    defaults.hints = 9
    defaults.save()
    assert Race.objects.get(pk=race.pk).rules["hints"] == 3


def test_the_room_page_carries_no_face_before_go(client):
    from accounts.identity import COOKIE_NAME, signed_token

    room, (owner,) = room_with("Ana")
    races.start_race(owner, room.code)  # the countdown has just begun
    client.cookies[COOKIE_NAME] = signed_token(owner.device_token)
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert '"x":' in page.replace(" ", "") and '"face"' not in page


def test_an_unknown_room_page_is_a_404(client):
    assert client.get("/rooms/NOPE42/").status_code == 404


def test_joining_over_http_with_a_bad_nickname_shows_the_reason(client):
    room, _ = room_with("Ana")
    response = client.post(f"/rooms/{room.code}/join", {"nickname": ""})
    assert response.status_code == 400 and "Enter a nickname" in response.content.decode()

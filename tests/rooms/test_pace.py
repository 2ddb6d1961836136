"""The human pace floor (docs/RULES.md §Fair play): a pair sooner than PAIR_FLOOR_MS after
the same player's previous pair is refused `too_fast` and changes nothing."""

import asyncio
from datetime import timedelta

import pytest

from accounts.models import Rating, RatingChange
from mahjong.race_rules import pace
from mahjong.race_rules.ratings import Glicko, update
from records import leaderboards
from rooms.core.boards import deal_for
from rooms.cpus import stand_in
from rooms.models import Entry, Move
from rooms.race import actions as races
from rooms.ranked import actions as ranked
from rooms.ranked import fair_play
from tests.ranked.test_ranked_queue import play_pairs, ranked_race
from tests.rooms.rooms_helpers import close_all, db, refused, room_with, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair_floor(settings):
    settings.PAIR_FLOOR_MS = 250
    return settings


def a_race():
    room, (ana, bo) = room_with("Ana", "Bo")
    race = races.start_race(ana, room.code, seed=3)
    entry = race.entries.get(seat__player=ana)
    return room, ana, entry, deal_for(entry.code).plan, race.go_at + timedelta(seconds=1)


def test_a_pair_sooner_than_a_hand_can_is_refused_and_changes_nothing(pair_floor):
    room, ana, entry, plan, now = a_race()
    races.play_pair(ana, room.code, sorted(plan[0]), 0, now=now)
    soon = now + timedelta(milliseconds=100)
    before = Entry.objects.get(pk=entry.pk)
    refused("too_fast", races.play_pair, ana, room.code, sorted(plan[1]), 1, now=soon)
    after = Entry.objects.get(pk=entry.pk)
    assert (after.alive, after.pairs_removed) == (before.alive, before.pairs_removed)
    assert Move.objects.filter(entry=entry).count() == 1
    later = now + timedelta(milliseconds=300)
    assert races.play_pair(ana, room.code, sorted(plan[1]), 1, now=later).pairs_removed == 2


def test_a_stand_ins_pair_does_not_count_against_the_human_coming_back(pair_floor):
    room, ana, entry, plan, now = a_race()
    races.play_pair(ana, room.code, sorted(plan[0]), 0, now=now)
    entry.refresh_from_db()
    assert stand_in.take(entry, now + timedelta(seconds=40))
    cpu_move = now + timedelta(seconds=41)
    room.refresh_from_db()
    entry.refresh_from_db()
    races.remove_pair(room, entry, *sorted(plan[1]), 1, cpu_move, by_cpu=True)
    back = cpu_move + timedelta(milliseconds=50)  # right after the CPU's pair
    assert races.play_pair(ana, room.code, sorted(plan[2]), 2, now=back).pairs_removed == 3


@pytest.mark.django_db(transaction=True)
async def test_a_socket_client_at_a_tenth_of_a_second_a_pair_gets_too_fast(pair_floor):
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await ana.ask(type="start")
    for socket in sockets:
        await socket.go()
    code = await db(lambda: Entry.objects.get(seat__player=players[0]).code)()
    plan = deal_for(code).plan
    assert (await ana.ask(type="move", tiles=sorted(plan[0]), n=0))["type"] == "ack"
    answer = await ana.ask(type="move", tiles=sorted(plan[1]), n=1)
    assert (answer["type"], answer["code"]) == ("error", "too_fast")
    stored = await db(lambda: Entry.objects.get(seat__player=players[0]).pairs_removed)()
    assert stored == 1
    await close_all(sockets)


# --- inhuman pace, found when the race ends -----------------------------------------------
def play_at(player, room, entry, gaps_ms, start):
    """Play the deal's plan with these gaps between pairs (the first at `start`)."""
    at = start
    for n, pair in enumerate(deal_for(entry.code).plan):
        races.play_pair(player, room.code, sorted(pair), n, now=at)
        at += timedelta(milliseconds=gaps_ms[n % len(gaps_ms)])


def race_played_at(gaps_ms):
    """Ana plays her whole board at these gaps; Bo gives up; the race ends."""
    room, ana, entry, plan, now = a_race()
    play_at(ana, room, entry, gaps_ms, now)
    bo = Entry.objects.get(race=entry.race, seat__nickname="Bo").seat.player
    races.give_up(bo, room.code, now=now + timedelta(minutes=5))
    entry.refresh_from_db()
    assert entry.race.status == "finished"
    return entry


def test_a_script_at_four_tenths_of_a_second_a_pair_is_flagged_and_off_the_boards():
    entry = race_played_at([400, 410, 395, 405])
    assert entry.pace_flagged and 390 <= entry.pace_median_ms <= 410 and entry.pace_spread < 0.1
    assert entry.place == 1  # the result stays in the race's ranking
    assert entry.pk not in [e.pk for e in leaderboards.fastest_race_wins(entry.level)]


def test_a_fast_but_human_pace_is_not_flagged():
    # A quick player: some pairs in half a second, most after a look around the board.
    entry = race_played_at([450, 2600, 900, 5200, 520, 1700, 3100, 480, 1200, 7400])
    assert not entry.pace_flagged
    assert entry.pk in [e.pk for e in leaderboards.fastest_race_wins(entry.level)]


def test_the_pace_rule_in_numbers():
    assert pace.inhuman([500] * 14) is None  # too few pairs to judge
    assert pace.inhuman([590] * 15) == pace.Pace(590, 0.0)
    assert pace.inhuman([700] * 30) is None  # regular, but a human can keep that up
    assert pace.inhuman([300, 900] * 8) is None  # fast on average, but uneven


def test_a_flagged_player_is_not_rated_and_the_others_are():
    race, (ana, bo, cy), now = ranked_race("Ana", "Bo", "Cy")
    entry = race.entries.get(seat__player=ana)
    play_at(ana, race.room, entry, [400], now)  # Ana, a script, clears the board
    play_pairs(race, bo, 4, now)
    for player in (bo, cy):
        races.give_up(player, race.room.code, now=now + timedelta(minutes=1))
    assert Entry.objects.get(pk=entry.pk).pace_flagged
    assert not Rating.objects.filter(player=ana).exists()
    ratings = {r.player_id: r.value for r in Rating.objects.all()}
    assert ratings[bo.pk] > ratings[cy.pk]


def test_an_admin_clears_a_fast_human_and_voids_a_script(admin_client):
    fast = race_played_at([400])
    script = race_played_at([380])
    url = "/admin/rooms/entry/"
    listed = admin_client.get(url, {"pace_flagged__exact": "1"}).content.decode()
    assert listed.count('name="_selected_action"') == 2
    admin_client.post(url, {"action": "clear_pace_flag", "_selected_action": [fast.pk]})
    fast.refresh_from_db()
    assert not fast.pace_flagged
    assert fast.pk in [e.pk for e in leaderboards.fastest_race_wins(fast.level)]
    admin_client.post(url, {"action": "void_and_ban", "_selected_action": [script.pk]})
    script.refresh_from_db()
    player = script.seat.player
    player.refresh_from_db()
    assert script.voided and player.banned_from_ranked
    refused("banned", ranked.join_queue, player, "easy", "Robo")


def test_a_cleared_ranked_result_is_rated_against_the_others_before_that_race(admin_client):
    race, (ana, bo, cy), now = ranked_race("Ana", "Bo", "Cy")
    entry = race.entries.get(seat__player=ana)
    play_at(ana, race.room, entry, [400], now)  # very fast, and in fact a human
    play_pairs(race, bo, 4, now)
    for player in (bo, cy):
        races.give_up(player, race.room.code, now=now + timedelta(minutes=1))
    others = {r.player_id: r.value for r in Rating.objects.all()}
    admin_client.post(
        "/admin/rooms/entry/", {"action": "clear_pace_flag", "_selected_action": [entry.pk]}
    )
    late = RatingChange.objects.get(player=ana, race_ref=race.pk)
    # First of three, against Bo and Cy as they stood before the race (both new).
    expected = update(Glicko(), [(Glicko(), 1.0), (Glicko(), 1.0)], weight=0.5)
    assert (late.place, late.field_size) == (1, 3)
    assert late.after == pytest.approx(expected.rating) and late.after > 1600
    assert {r.player_id: r.value for r in Rating.objects.exclude(player=ana)} == others
    admin_client.post(  # clearing again rates nothing twice
        "/admin/rooms/entry/", {"action": "clear_pace_flag", "_selected_action": [entry.pk]}
    )
    assert RatingChange.objects.filter(player=ana).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_script_at_four_tenths_of_a_second_is_flagged_until_an_admin_clears_it(
    pair_floor,
):
    room, players, sockets = await seated("Ana", "Bo")
    ana, bo = sockets
    await ana.ask(type="start")
    for socket in sockets:
        await socket.go()
    entry = await db(lambda: Entry.objects.get(seat__player=players[0]))()
    for n, pair in enumerate(deal_for(entry.code).plan):  # 17 pairs, one each 0.4 s
        assert (await ana.ask(type="move", tiles=sorted(pair), n=n))["type"] == "ack"
        await asyncio.sleep(0.4)
    assert (await bo.ask(type="give_up"))["type"] == "ack"
    await ana.next("race_finished")
    await close_all(sockets)
    entry = await db(lambda: Entry.objects.get(pk=entry.pk))()
    assert entry.pace_flagged and entry.place == 1
    assert 390 <= entry.pace_median_ms <= 600
    level_board = await db(lambda: [e.pk for e in leaderboards.fastest_race_wins(entry.level)])()
    assert entry.pk not in level_board
    cleared = await db(lambda: fair_play.clear_flags(Entry.objects.filter(pk=entry.pk)))()
    assert cleared == 1
    level_board = await db(lambda: [e.pk for e in leaderboards.fastest_race_wins(entry.level)])()
    assert entry.pk in level_board

"""Arena races are ordinary rooms' races the arena owns (docs/RULES.md §Arenas): players
who say ready are seated together, alone a player races CPUs, every race's end scores
its humans, a player's streak doubles, the table is the races' sum, the last minute
starts nothing and the races running at the end count."""

from datetime import timedelta

import pytest
from django.utils import timezone

from arenas import actions, pairing, queries, scoring
from arenas.models import Arena, ArenaPlayer, ArenaRace, ArenaResult
from rooms.models import Entry, Race, Room
from rooms.race import actions as races
from rooms.ranked import fair_play
from tests.arenas.arena_helpers import (
    joined,
    new_arena,
    paired,
    play_out,
    play_some,
    race_of,
    refused,
)

pytestmark = pytest.mark.django_db


def test_two_ready_players_are_seated_in_one_race_of_a_hosted_room_the_arena_owns():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    codes = paired(arena, [ana, bo], timezone.now())
    assert len(codes) == 1
    room = Room.objects.get(code=codes[0])
    assert room.hosted and room.level == "beginner"
    assert sorted(room.seats.values_list("nickname", flat=True)) == ["Ana", "Bo"]
    race = room.current_race()
    assert race.status == Race.Status.RUNNING and ArenaRace.objects.get(race=race).arena == arena
    states = set(ArenaPlayer.objects.values_list("state", flat=True))
    assert states == {ArenaPlayer.State.RACING}


def test_the_winner_of_a_race_of_two_scores_twelve_and_the_one_who_gave_up_none():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    paired(arena, [ana, bo], timezone.now())
    race, board = race_of(arena, ana)
    done = play_out(ana, board, race.go_at)
    races.give_up(bo, race.room.code, now=done + timedelta(seconds=1))
    rows = {r.arena_player.nickname: r for r in ArenaResult.objects.select_related("arena_player")}
    assert (rows["Ana"].points, rows["Ana"].share, rows["Ana"].finished_in_time) == (12, 1.0, True)
    assert (rows["Bo"].points, rows["Bo"].share) == (0, 0.0)
    table = queries.table_json(arena)
    assert [(r["rank"], r["name"], r["points"], r["races"]) for r in table] == [
        (1, "Ana", 12, 1),
        (2, "Bo", 0, 1),
    ]
    assert table[0]["best_ms"] == Entry.objects.get(pk=board.pk).finished_ms
    # After the race both are paused: the page offers the next race.
    assert set(ArenaPlayer.objects.values_list("state", flat=True)) == {"paused"}


def test_three_wins_in_a_row_light_the_streak_and_the_third_counts_double():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    at = timezone.now()
    for seed in (1, 2, 3):
        paired(arena, [ana, bo], at, seed=seed)
        race, board = race_of(arena, ana)
        at = play_out(ana, board, race.go_at)
        races.give_up(bo, race.room.code, now=at)
        at += timedelta(seconds=5)
    points = list(
        ArenaResult.objects.filter(arena_player__player=ana).values_list("points", "streak_applied")
    )
    assert points == [(12, False), (12, False), (24, True)]
    top = queries.table_json(arena)[0]
    assert (top["name"], top["points"], top["races"], top["fire"]) == ("Ana", 48, 3, True)
    # The table is the races' sum: recomputed from the stored results, it reads the same.
    before = queries.table_json(arena)
    ArenaPlayer.objects.update(points=0, races=0, streak=0)
    scoring.rescore_arena(arena)
    assert queries.table_json(arena) == before


def test_a_player_alone_races_three_cpus_who_never_score():
    arena = new_arena()
    (ana,) = joined(arena, "Ana")
    codes = paired(arena, [ana], timezone.now())
    room = Room.objects.get(code=codes[0])
    assert room.seats.filter(player=None).count() == 3
    race, board = race_of(arena, ana)
    play_out(ana, board, race.go_at)  # the last human done: the race ends
    assert Race.objects.get(pk=race.pk).status == Race.Status.FINISHED
    (row,) = ArenaResult.objects.all()
    assert (row.share, row.points, row.finished_in_time) == (None, 2, True)
    assert ArenaResult.objects.count() == 1  # no CPU row


def test_going_all_in_drops_hints_and_shuffles_before_go_and_adds_a_point():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    actions.set_all_in(ana, arena.code, True)
    paired(arena, [ana, bo], timezone.now())
    race, board = race_of(arena, ana)
    assert (board.hints_used, board.shuffles_used) == (race.rules["hints"], race.rules["shuffles"])
    _, bos = race_of(arena, bo)
    assert (bos.hints_used, bos.shuffles_used) == (0, 0)
    done = play_out(ana, board, race.go_at)
    races.give_up(bo, race.room.code, now=done)
    row = ArenaResult.objects.get(arena_player__player=ana)
    assert (row.all_in, row.points) == (True, 13)


def test_a_board_played_at_an_inhuman_pace_scores_nothing_until_an_admin_clears_it():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    paired(arena, [ana, bo], timezone.now())
    race, board = race_of(arena, ana)
    done = play_out(ana, board, race.go_at, gap=lambda k: 0.4)  # a script's even 400 ms
    races.give_up(bo, race.room.code, now=done)
    row = ArenaResult.objects.get(arena_player__player=ana)
    assert (row.flagged, row.points) == (True, 0)
    assert queries.table_json(arena)[0]["points"] == 0
    fair_play.clear_flags(Entry.objects.filter(pk=board.pk))
    row.refresh_from_db()
    assert (row.flagged, row.points) == (False, 12)
    assert ArenaPlayer.objects.get(player=ana).points == 12


def test_a_stand_ins_pairs_score_nothing():
    arena = new_arena()
    ana, bo = joined(arena, "Ana", "Bo")
    paired(arena, [ana, bo], timezone.now())
    race, board = race_of(arena, ana)
    at = play_some(ana, board, race.go_at, 10)
    _, bos = race_of(arena, bo)
    at = play_some(bo, bos, race.go_at, 12)
    # Ana's last five pairs are a stand-in's: she counts as given up at her own 10 of 17.
    Entry.objects.filter(pk=board.pk).update(cpu_pairs=5, pairs_removed=15)
    Entry.objects.filter(pk=board.pk).update(status=Entry.Status.FINISHED, finished_ms=60_000)
    from rooms.race import end as race_end

    race_end.end_race_by_staff(race.room.code, now=at)
    rows = {r.arena_player.nickname: r for r in ArenaResult.objects.select_related("arena_player")}
    assert rows["Ana"].stand_in and not rows["Ana"].finished_in_time
    assert (rows["Ana"].points, rows["Bo"].points) == (0, 10)


def test_no_race_starts_in_the_last_minute_and_ready_is_refused_then():
    arena = new_arena(minutes=10)
    ana, bo = joined(arena, "Ana", "Bo")
    now = timezone.now()
    for player in (ana, bo):
        actions.ready(player, arena.code, now=now)
    last_minute = arena.ends_at - timedelta(seconds=59)
    assert pairing.pair_arena(arena, last_minute) == []
    assert Room.objects.count() == 0
    (cy,) = joined(arena, "Cy")
    message = refused("last_minute", actions.ready, cy, arena.code, now=last_minute)
    assert "last minute" in message


def test_a_race_running_at_the_end_finishes_and_counts_before_the_arena_closes():
    arena = new_arena(minutes=10)
    ana, bo = joined(arena, "Ana", "Bo")
    start = arena.ends_at - timedelta(minutes=2)
    paired(arena, [ana, bo], start)
    race, board = race_of(arena, ana)
    after_end = arena.ends_at + timedelta(seconds=30)
    pairing.tick(after_end)
    assert Arena.objects.get(pk=arena.pk).status == Arena.Status.RUNNING  # a race runs
    done = play_out(ana, board, race.go_at, first_after=100)  # her pairs after the end
    assert done > arena.ends_at
    races.give_up(bo, race.room.code, now=done)
    pairing.tick(done + timedelta(seconds=2))
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    assert queries.table_json(arena)[0]["points"] == 12
    state = queries.state_json(arena, None)
    assert [row["name"] for row in state["podium"]] == ["Ana", "Bo"]

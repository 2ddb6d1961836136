"""Who races whom in an arena (docs/RULES.md §Arenas): over random arrivals, passes every
few seconds group everyone waiting into races of 2 to 20 humans, nearest scores together,
and nobody waits past 20 s while another human waits; alone, a player races the CPUs;
nothing starts in the last minute."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.race_rules.arena_pairing import (
    ALONE_WAIT,
    LAST_START,
    MAX_HUMANS,
    MAX_WAIT,
    Waiting,
    may_start,
    pair,
)

START = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
PASS = timedelta(seconds=2)

arrivals = st.lists(
    st.tuples(st.integers(0, 600), st.integers(0, 400)),  # (tenths of a second, score)
    min_size=1,
    max_size=120,
)


@settings(max_examples=150, deadline=None)
@given(arrivals=arrivals, offset=st.integers(0, 19))
def test_random_arrivals_are_grouped_fairly_and_nobody_waits_past_twenty_seconds(arrivals, offset):
    ends_at = START + timedelta(minutes=30)
    people = [
        Waiting(n, score, START + timedelta(seconds=t / 10))
        for n, (t, score) in enumerate(arrivals)
    ]
    waiting: dict[int, Waiting] = {}
    seated: set[int] = set()
    now = START + timedelta(seconds=offset / 10)
    while len(seated) < len(people):
        for person in people:
            if person.since <= now and person.key not in seated:
                waiting[person.key] = person
        before = list(waiting.values())
        groups = pair(before, now, ends_at)
        keys = [w.key for group in groups for w in group]
        assert len(keys) == len(set(keys)), "nobody in two races"
        assert set(keys) <= set(waiting), "only the waiting are seated"
        for group in groups:
            assert 1 <= len(group) <= MAX_HUMANS
            if len(group) == 1:  # alone with the CPUs: only when nobody else waited
                assert len(before) == 1 and now - group[0].since >= ALONE_WAIT
        if len(before) >= 2:  # all of them go together once anyone has waited a little
            for w in before:
                assert w.key in keys or now - min(o.since for o in before) < MAX_WAIT
        # Nearest scores together: the groups' score ranges never interleave.
        ranges = sorted(
            ((min(w.score for w in g), max(w.score for w in g)) for g in groups),
            key=lambda r: -r[1],
        )
        for (low, _high), (_low2, high2) in zip(ranges, ranges[1:], strict=False):
            assert high2 <= low
        for key in keys:
            seated.add(key)
            del waiting[key]
        # Whoever still waits while another waits too has not waited past the promise.
        if len(waiting) >= 2:
            for w in waiting.values():
                assert now - w.since <= MAX_WAIT
        now += PASS


@given(count=st.integers(2, 200))
def test_a_crowd_is_cut_into_races_of_two_to_twenty_of_nearly_equal_size(count):
    crowd = [Waiting(n, n % 37, START) for n in range(count)]
    groups = pair(crowd, START + timedelta(seconds=5), START + timedelta(minutes=30))
    sizes = [len(g) for g in groups]
    assert sum(sizes) == count
    assert all(2 <= size <= MAX_HUMANS for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    scores = [w.score for g in groups for w in g]
    assert scores == sorted(scores, reverse=True)  # nearest scores race together


def test_a_player_alone_races_the_cpus_after_a_short_wait():
    alone = [Waiting("Ana", 0, START)]
    ends = START + timedelta(minutes=30)
    assert pair(alone, START + ALONE_WAIT - timedelta(seconds=1), ends) == []
    assert pair(alone, START + ALONE_WAIT, ends) == [alone]


def test_no_race_starts_in_the_last_minute():
    ends = START + timedelta(minutes=30)
    two = [Waiting("Ana", 0, START), Waiting("Bo", 5, START)]
    last_minute = ends - LAST_START
    assert not may_start(last_minute, ends)
    assert pair(two, last_minute, ends) == []
    assert pair(two, last_minute - timedelta(seconds=1), ends) != []

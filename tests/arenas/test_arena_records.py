"""What other parts read of arenas and what they keep: the winners of a period (for
records' leaderboards), the admin's screens and its "Score again", an account merge."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts import actions as accounts_actions
from accounts.models import Player
from arenas import pairing, queries
from arenas.models import Arena, ArenaPlayer, ArenaSchedule
from rooms.race import actions as races
from tests.arenas.arena_helpers import joined, new_arena, paired, play_out, race_of

pytestmark = pytest.mark.django_db


def finished_arena(winner_name, loser_name, players=None):
    arena = new_arena(minutes=10)
    ana, bo = players or joined(arena, winner_name, loser_name)
    if players:
        from arenas import actions

        actions.join(ana, arena.code, winner_name)
        actions.join(bo, arena.code, loser_name)
    now = timezone.now()
    paired(arena, [ana, bo], now)
    race, board = race_of(arena, ana)
    done = play_out(ana, board, race.go_at)
    races.give_up(bo, race.room.code, now=done)
    Arena.objects.filter(pk=arena.pk).update(starts_at=now - timedelta(minutes=20))
    pairing.tick(now)
    return arena, ana, bo


def test_winners_between_counts_each_players_wins_and_podiums_in_the_period():
    _, ana, bo = finished_arena("Ana", "Bo")
    finished_arena("Ana", "Bo", players=[ana, bo])
    finished_arena("Bo", "Ana", players=[bo, ana])
    now = timezone.now()
    rows = queries.winners_between(now - timedelta(hours=1), now + timedelta(minutes=1))
    assert [(r["name"], r["wins"], r["podiums"]) for r in rows] == [("Ana", 2, 3), ("Bo", 1, 3)]
    assert queries.winners_between(now - timedelta(days=2), now - timedelta(days=1)) == []


def test_the_leaderboards_name_the_arena_winners_of_the_period_and_link_their_pages(client):
    from django.utils.translation import override

    _, ana, bo = finished_arena("Ana", "Bo")
    today = timezone.now().date()
    for url in ("/leaderboards/", f"/leaderboards/day/{today.isoformat()}/"):
        page = client.get(url).content.decode()
        section = page[page.index('<section id="arenas">') :].split("</section>")[0]
        assert "Arena winners" in section
        assert f'<a href="/players/{ana.pk}/">Ana</a></td><td class="num">1</td>' in section
        assert f'<a href="/players/{bo.pk}/">Bo</a></td><td class="num">0</td>' in section
    yesterday = (today - timedelta(days=1)).isoformat()
    page = client.get(f"/leaderboards/day/{yesterday}/").content.decode()
    assert "No arena finished in this period." in page and "/players/" + str(ana.pk) not in page
    with override("es"):
        spanish = client.get("/leaderboards/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ganadores de arenas" in spanish and "Podios" in spanish


def test_the_admin_lists_every_arena_table_and_scores_an_arena_again(admin_client):
    ArenaSchedule.objects.create(name="Easy hourly", level="easy")
    arena, ana, _ = finished_arena("Ana", "Bo")
    for url in (
        "/admin/arenas/arenaschedule/",
        "/admin/arenas/arenaschedule/add/",
        "/admin/arenas/arena/",
        f"/admin/arenas/arena/{arena.pk}/change/",
        "/admin/arenas/arenaplayer/",
        "/admin/arenas/arenarace/",
        "/admin/arenas/arenaresult/",
    ):
        assert admin_client.get(url).status_code == 200, url
    ArenaPlayer.objects.filter(player=ana).update(points=0)
    response = admin_client.post(
        "/admin/arenas/arena/", {"action": "score_again", "_selected_action": [arena.pk]}
    )
    assert response.status_code == 302
    assert ArenaPlayer.objects.get(player=ana).points == 12


def test_an_account_merge_moves_the_devices_arena_places():
    arena = new_arena()
    (device,) = joined(arena, "Ana")
    account = Player.objects.create(nickname="Ana")
    with transaction.atomic():
        accounts_actions.merge_players(device, account)
    assert ArenaPlayer.objects.get(arena=arena).player == account

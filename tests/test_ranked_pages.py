"""The /ranked/ pages: join and leave the queue, the status poll, and two Chromium
players whose waiting pages move to their race by themselves."""

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from rooms.models import QueueEntry, Room
from tests.accounts_helpers import device_player


def join(client, level="easy", nickname="Ana"):
    return client.post("/ranked/join", {"level": level, "nickname": nickname})


@pytest.mark.django_db
def test_joining_from_the_page_puts_the_player_in_the_queue(client):
    assert join(client).url == "/ranked/"
    waiting = QueueEntry.objects.get(player=device_player(client))
    assert waiting.level == "easy" and waiting.player.nickname == "Ana"
    page = client.get("/ranked/").content.decode()
    assert "Easy: 1 waiting" in page and "Leave the queue" in page
    assert client.get("/ranked/status").json()["waiting"] is True


@pytest.mark.django_db
@pytest.mark.parametrize("level, nickname", [("expert", "Ana"), ("", "Ana"), ("easy", " ")])
def test_a_bad_join_is_refused_with_a_message_and_queues_nobody(client, level, nickname):
    response = join(client, level, nickname)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db
def test_leaving_from_the_page_empties_the_queue(client):
    join(client)
    assert client.post("/ranked/leave").url == "/ranked/"
    assert not QueueEntry.objects.exists()
    assert client.get("/ranked/status").json() == {"waiting": False, "room": None}


@pytest.mark.django_db
def test_the_status_poll_forms_a_due_group_and_points_to_the_room(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    other = Player.objects.create()
    from rooms import ranked

    ranked.join_queue(other, "easy", "Bo")
    join(client)  # the join itself groups the two at once: the wait is over
    state = client.get("/ranked/status").json()
    room = Room.objects.get(ranked=True)
    assert state == {"waiting": False, "room": room.code, "url": f"/rooms/{room.code}/"}
    assert "Back to your ranked race" in client.get("/ranked/").content.decode()


@pytest.mark.django_db
def test_a_join_that_completes_a_due_group_goes_straight_to_the_race(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    from rooms import ranked

    ranked.join_queue(Player.objects.create(), "easy", "Bo")
    response = join(client)
    room = Room.objects.get(ranked=True)
    assert response.url == f"/rooms/{room.code}/"
    assert room.seats.filter(player=device_player(client)).exists()


@pytest.mark.django_db
def test_a_ranked_room_page_offers_no_join_and_refuses_one(client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    from rooms import ranked

    ranked.join_queue(Player.objects.create(), "easy", "Bo")
    ranked.join_queue(Player.objects.create(), "easy", "Cy")
    (code,) = ranked.form_groups("easy")
    page = client.get(f"/rooms/{code}/").content.decode()
    assert 'id="ranked-note"' in page and 'id="join-nickname"' not in page
    response = client.post(f"/rooms/{code}/join", {"nickname": "Late"})
    assert response.status_code == 400
    assert "queue" in response.content.decode()
    assert Room.objects.get(code=code).seats.count() == 2


@pytest.fixture
def short_waits(settings):
    settings.RANKED_WAIT_SECONDS = 1
    settings.RACE_COUNTDOWN_SECONDS = 1


def test_two_waiting_players_are_taken_to_their_ranked_race(asgi_server, new_device, short_waits):
    pages = [new_device() for _ in range(2)]
    for page, name in zip(pages, ("Ana", "Bo"), strict=True):
        page.goto(f"{asgi_server.url}/ranked/")
        page.fill("#ranked-nickname", name)
        page.get_by_label("Beginner").check()
        page.get_by_role("button", name="Join the queue").click()
    code = None
    for page in pages:
        page.wait_for_url("**/rooms/*/")
        code = code or page.url.rstrip("/").rsplit("/", 1)[-1]
        assert page.url.endswith(f"/rooms/{code}/")
        expect(page.locator(".tile[data-face]")).to_have_count(34)
        expect(page.locator("#owner-tools")).to_be_hidden()
        expect(page.locator("#start")).to_be_hidden()
        expect(page.locator("#ranked-note")).to_be_visible()
    room = Room.objects.get(code=code)
    assert room.ranked and room.seats.count() == 2

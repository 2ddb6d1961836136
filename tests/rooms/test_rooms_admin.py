"""The rooms admin: one editable site-defaults record that reaches new rooms and not
running races, read-only history, and the staff action that ends a stuck race."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Player
from rooms.models import Move, Race, SiteDefaults
from rooms.race import actions as races
from rooms.race import end as race_end
from rooms.ranked import actions as ranked
from tests.rooms.rooms_helpers import first_plan_pair, refused, room_with

pytestmark = pytest.mark.django_db
T0 = timezone.now()
DEFAULTS_URL = "/admin/rooms/sitedefaults/1/change/"


def defaults_form(**changes) -> dict:
    form = {name: value for name, value in SiteDefaults.load().rules().items()}
    form.update(changes)
    # An unchecked box is simply absent from a posted form.
    return {name: value for name, value in form.items() if value is not False}


def race_started_at_t0():
    """Ana and Bo's race as Start left it at T0 (its go 3 s later): the Race."""
    room, (ana, bo) = room_with("Ana", "Bo")
    return races.start_race(ana, room.code, now=T0)


def test_an_admin_change_of_a_default_reaches_new_rooms_and_not_running_races(admin_client):
    race = race_started_at_t0()
    response = admin_client.post(DEFAULTS_URL, defaults_form(level="hard", hints=7, flowers=True))
    assert response.status_code == 302, response.content.decode()
    new_room, _ = room_with("Cy")
    assert (new_room.level, new_room.hints, new_room.flowers) == ("hard", 7, True)
    race.refresh_from_db()
    race.room.refresh_from_db()
    assert (race.rules["level"], race.rules["hints"], race.rules["flowers"]) == ("easy", 3, False)
    assert (race.room.level, race.room.hints) == ("easy", 3)


@pytest.mark.parametrize(
    "field, value",
    [("hints", 11), ("shuffles", -1), ("time_limit_minutes", 7), ("level", "expert")],
)
def test_a_default_out_of_its_choices_is_refused_and_changes_nothing(admin_client, field, value):
    response = admin_client.post(DEFAULTS_URL, defaults_form(**{field: value}))
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert SiteDefaults.load().rules() == SiteDefaults().rules()


def test_the_site_defaults_are_one_record_that_cannot_be_added_or_deleted(admin_client):
    assert admin_client.get("/admin/rooms/sitedefaults/").url == DEFAULTS_URL
    assert admin_client.get("/admin/rooms/sitedefaults/add/").status_code == 403
    assert admin_client.post("/admin/rooms/sitedefaults/1/delete/").status_code == 403
    assert SiteDefaults.objects.count() == 1


def test_staff_end_a_stuck_race_now_and_it_is_ranked(admin_client):
    race = race_started_at_t0()
    response = admin_client.post(
        "/admin/rooms/race/", {"action": "end_race_now", "_selected_action": [race.pk]}
    )
    assert response.status_code == 302
    race.refresh_from_db()
    assert race.status == Race.Status.FINISHED
    assert sorted(race.entries.values_list("place", flat=True)) == [1, 1]


def test_ending_a_race_already_over_is_refused_and_changes_nothing():
    race = race_started_at_t0()
    later = race.go_at + timedelta(minutes=1)
    race_end.end_race_by_staff(race.room.code, now=later)
    refused("no_race", race_end.end_race_by_staff, race.room.code, now=later + timedelta(minutes=1))
    race.refresh_from_db()
    assert race.finished_at == later


def test_staff_without_the_change_permission_cannot_end_races(client):
    race = race_started_at_t0()
    staff = get_user_model().objects.create_user("viewer", password="x", is_staff=True)
    staff.user_permissions.add(*_permissions("view_race"))
    client.force_login(staff)
    page = client.get("/admin/rooms/race/").content.decode()
    assert "end_race_now" not in page
    client.post("/admin/rooms/race/", {"action": "end_race_now", "_selected_action": [race.pk]})
    race.refresh_from_db()
    assert race.status == Race.Status.RUNNING


def _permissions(*codenames):
    from django.contrib.auth.models import Permission

    return Permission.objects.filter(content_type__app_label="rooms", codename__in=codenames)


@pytest.mark.parametrize("model", ["room", "race", "entry", "move"])
def test_history_pages_refuse_edits(admin_client, model):
    race = race_started_at_t0()
    entry = race.entries.select_related("seat").first()
    pair = first_plan_pair(entry)
    races.play_pair(entry.seat.player, race.room.code, pair, 0, now=race.go_at)
    pk = {"room": race.room_id, "race": race.pk, "entry": entry.pk, "move": Move.objects.get().pk}
    url = f"/admin/rooms/{model}/{pk[model]}/"
    assert admin_client.get(f"/admin/rooms/{model}/add/").status_code == 403
    page = admin_client.get(f"{url}change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert admin_client.post(f"{url}change/", {}).status_code == 403
    assert admin_client.post(f"{url}delete/").status_code == 403
    entry.refresh_from_db()
    assert (entry.pairs_removed, Move.objects.count()) == (1, 1)


def test_a_rating_change_links_to_its_race_in_the_admin(admin_client, settings):
    settings.RANKED_WAIT_SECONDS = 0
    players = [Player.objects.create() for _ in range(2)]
    for player, nickname in zip(players, ("Ana", "Bo"), strict=True):
        ranked.join_queue(player, "easy", nickname, now=T0)
    (code,) = ranked.form_groups("easy", now=T0)
    race = Race.objects.get(room__code=code)
    race_end.end_race_by_staff(code, now=race.go_at)
    page = admin_client.get("/admin/accounts/ratingchange/").content.decode()
    assert page.count(f'href="/admin/rooms/race/{race.pk}/change/"') == 2

"""Watching and the edges of a race in real Chromium windows: a spectator through the
3-2-1 and the race (the whole table, no face, none of a player's counters), a clock that
holds once a board is given up and reads 0:00 over the next countdown, the whole table
opened on a phone without squeezing the board away, and all of it in Spanish."""

import time

from playwright.sync_api import expect

from rooms.core.boards import deal_for
from rooms.lobby import actions as lobby
from rooms.race import actions as races
from tests.browser.browser_helpers import DESKTOP, PHONE, click_pair, page_for, server_side, shoot
from tests.rooms.rooms_helpers import board_of, room_with


def test_a_spectator_sees_the_countdown_and_the_whole_table_but_no_face_or_counter(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 3
    room, (ana, bo) = server_side(room_with, "Ana", "Bo", cpus=["steady"])
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    watcher = page_for(new_device, asgi_server, None, PHONE)
    watcher.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(watcher.locator("#seats li")).to_have_count(3)
    server_side(races.start_race, ana, room.code, seed=4)
    countdown = watcher.locator("#countdown")
    expect(countdown).to_be_visible()
    box = countdown.bounding_box()
    assert box["width"] >= 120 and box["height"] >= 120  # the 3-2-1, not clipped away
    expect(watcher.locator("#all-count")).to_have_text("(3)")  # fresh standings at once
    expect(watcher.locator("#notice")).to_have_text(
        "You are watching: the boards stay hidden until the race ends."
    )
    expect(watcher.locator("#join-next")).to_be_visible()  # joining is for the next race
    for counter in ("#hints-left", "#shuffles-left", "#progress"):
        expect(watcher.locator(counter)).to_be_hidden()
    shoot(watcher, "spectator-countdown-390")
    expect(countdown).to_be_hidden(timeout=6000)
    entry = server_side(board_of, "Ana")
    server_side(races.play_pair, ana, room.code, list(deal_for(entry.code).plan[0]), 0)
    rows = watcher.locator("#all-rows li")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("Ana")
    expect(watcher.locator("#all-standings")).to_have_attribute("open", "")
    assert watcher.locator(".tile[data-face]").count() == 0
    width = watcher.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    shoot(watcher, "spectator-race-390")


def test_giving_up_holds_the_clock_and_the_next_countdown_reads_zero(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0.5
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    page = page_for(new_device, asgi_server, bo)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    server_side(races.start_race, ana, room.code, seed=6)
    expect(page.locator(".tile[data-face]")).to_have_count(34)
    expect(page.locator("#clock")).not_to_have_text("0:00", timeout=3000)
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#done-banner")).to_contain_text("You gave up")
    held = page.locator("#clock").inner_text()
    time.sleep(1.3)
    expect(page.locator("#clock")).to_have_text(held)  # the clock does not run on
    page.reload()  # a page opened after that claims no time
    expect(page.locator("#clock")).to_have_text("–")
    server_side(races.give_up, ana, room.code)
    expect(page.locator("#results")).to_be_visible()
    settings.RACE_COUNTDOWN_SECONDS = 3
    server_side(races.offer_another_game, ana, room.code)
    page.get_by_role("button", name="Ready").click()  # the last one: race 2 starts itself
    expect(page.locator("#countdown")).to_be_visible()
    expect(page.locator("#clock")).to_have_text("0:00")  # not the last race's time


def test_the_whole_table_opened_on_a_phone_leaves_the_board_most_of_its_room(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 0
    names = [f"Player {k}" for k in range(1, 13)]
    room, players = server_side(room_with, *names)
    server_side(races.start_race, players[0], room.code, seed=8)
    page = page_for(new_device, asgi_server, players[0], PHONE)
    page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(page.locator(".tile[data-face]").first).to_be_visible()
    wrap = page.locator("#board-wrap")
    before = wrap.bounding_box()["height"]
    page.locator("#all-standings summary").click()
    expect(page.locator("#all-rows li")).to_have_count(12)
    time.sleep(0.3)  # the board refits to what is left
    after = wrap.bounding_box()["height"]
    assert after >= 0.7 * before, f"the board went from {before:.0f} to {after:.0f} px"
    assert page.evaluate("document.documentElement.scrollHeight") <= PHONE["height"]
    shoot(page, "all-standings-open-390")


def test_a_race_with_a_spectator_reads_in_spanish_from_the_countdown_to_the_rematch(
    asgi_server, new_device, settings
):
    settings.RACE_COUNTDOWN_SECONDS = 2
    settings.REMATCH_READY_SECONDS = 30
    room, (ana, bo) = server_side(room_with, "Ana", "Bo")
    server_side(lobby.update_rules, ana, room.code, {"level": "beginner"})
    owner = page_for(new_device, asgi_server, ana, DESKTOP, lang="es-ES")
    guest = page_for(new_device, asgi_server, bo, PHONE, lang="es-ES")
    watcher = page_for(new_device, asgi_server, None, DESKTOP, lang="es-ES")
    for page in (owner, guest, watcher):
        page.goto(f"{asgi_server.url}/rooms/{room.code}/")
    expect(owner.locator("#watching")).to_have_text("1 espectador")
    waiting = "Esperando a que quien creó la sala dé la salida"
    expect(guest.locator("#waiting")).to_have_text(waiting)
    owner.get_by_role("button", name="Empezar").click()
    expect(owner.locator("#countdown")).to_have_text("¡Ya!", timeout=4000)
    expect(watcher.locator("#notice")).to_have_text(
        "Estás mirando: los tableros no se muestran hasta que acabe la carrera."
    )
    expect(watcher.locator("#join-next")).to_have_text(
        "Hay una carrera en curso: jugarás desde la siguiente."
    )
    entry = server_side(board_of, "Ana")
    for pair in deal_for(entry.code).plan:
        click_pair(owner, entry, pair)
    expect(owner.locator("#done-banner")).to_contain_text("Has terminado 1.º en")
    expect(owner.locator("#done-banner")).to_contain_text("1 jugador sigue jugando")
    guest.get_by_role("button", name="Abandonar").click()
    for page in (owner, guest, watcher):
        expect(page.locator("#results-title")).to_have_text("Resultados de la carrera 1")
    expect(owner.locator("#results-rows")).to_contain_text("abandonó")
    owner.get_by_role("button", name="Otra partida").click()
    expect(guest.locator("#ready-title")).to_have_text("Siguiente carrera")
    expect(guest.get_by_role("button", name="Listo")).to_be_visible()
    expect(owner.locator("#ready-list")).to_contain_text("Bo: aún no está a punto")
    shoot(guest, "ready-check-es-390")

"""Sound in Chromium (mahjong/static/mahjong/sound.js; tests/pages/test_sound.py has the
rest): off until the player turns it on in Settings, every sound plays, the choice
remembered."""

from playwright.sync_api import expect

from tests.browser.browser_helpers import page_for

NAMES = ["select", "pair", "wrong", "shuffle", "win", "count", "go"]


def sound_state(page) -> dict:
    return page.evaluate(
        """() => ({
            enabled: MahjongSound.enabled(),
            context: MahjongSound.context() ? MahjongSound.context().state : null,
            names: MahjongSound.names,
        })"""
    )


def test_sound_is_off_by_default_and_makes_no_audio_context(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None)
    page.goto(f"{asgi_server.url}/play/")
    page.locator(".tile").first.wait_for()
    page.evaluate("() => MahjongSound.play('pair')")
    page.locator(".site-header").click()  # a gesture does not start audio either
    state = sound_state(page)
    assert state["enabled"] is False and state["context"] is None
    assert sorted(state["names"]) == sorted(NAMES)


def test_turned_on_every_sound_plays_without_error_and_the_choice_is_remembered(
    asgi_server, new_device
):
    page = page_for(new_device, asgi_server, None)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{asgi_server.url}/")
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("checkbox", name="Sound").check()  # a gesture: the context starts
    page.wait_for_function("() => (MahjongSound.context() || {}).state === 'running'")
    for name in NAMES:
        page.evaluate("(name) => MahjongSound.play(name)", name)
    page.wait_for_timeout(300)
    page.reload()
    assert sound_state(page)["enabled"] is True
    assert sound_state(page)["context"] is None  # none until the next gesture
    page.locator("main").click()
    page.wait_for_function("() => MahjongSound.context() !== null")
    page.evaluate("() => MahjongSound.play('count')")
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("checkbox", name="Sound")).to_be_checked()
    page.get_by_role("checkbox", name="Sound").uncheck()
    assert sound_state(page)["enabled"] is False
    assert errors == []

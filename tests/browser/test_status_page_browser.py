"""The status page in a real Chromium (infra/static/infra/status.js): its words come from
the page's own dictionary like every page's (docs/I18N.md: no JavaScript catalog), in the
browser's language, and the echo goes through the socket and back."""

from playwright.sync_api import expect

from tests.browser.browser_helpers import page_for, shoot


def test_the_status_page_speaks_spanish_from_its_own_words_and_echoes(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, lang="es")
    errors, asked = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{asgi_server.url}/status/")
    expect(page.locator("#parts li", has_text="base de datos: en marcha")).to_be_visible()
    expect(page.locator("#parts li")).to_have_count(4)
    named = {text.split(":")[0] for text in page.locator("#parts li").all_inner_texts()}
    assert named == {"base de datos", "Redis", "ejecutor de tareas", "programador de tareas"}
    shoot(page, "status-es")
    expect(page.locator("#socket-state")).to_have_text("abierta")
    page.fill("#echo-text", "hola")
    page.locator("#echo-form button").click()
    expect(page.locator("#echoes li").first).to_have_text("hola (vía socket)")
    assert errors == []
    assert not [url for url in asked if "jsi18n" in url]  # one way for words: the page's

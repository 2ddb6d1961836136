"""The Spanish wording in Chromium (tests/i18n/test_spanish_wording.py has the rest): a
page's news is not shown in the red of a refusal."""

from playwright.sync_api import expect

from tests.browser.browser_helpers import page_for


def test_on_the_tutorial_an_explanation_is_news_and_a_wrong_pair_an_error(asgi_server, new_device):
    page = page_for(new_device, asgi_server, None, lang="es")
    page.goto(f"{asgi_server.url}/learn/")
    ink = page.evaluate("getComputedStyle(document.body).color")
    page.locator(".tile[data-index='1']").click()  # blocked: the board says why
    message = page.locator("#message")
    expect(message).to_contain_text("con fichas a ambos lados")
    assert message.evaluate("(el) => getComputedStyle(el).color") == ink
    for index in (5, 6):  # the flowers, but the step asks for the 3 of dots
        page.locator(f".tile[data-index='{index}']").click()
    expect(message).to_have_attribute("data-kind", "error")
    assert message.evaluate("(el) => getComputedStyle(el).color") != ink

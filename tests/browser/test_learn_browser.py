"""The "learn on the board" tutorial in a real Chromium, in each language: it teaches
free and blocked tiles, pairs, flowers, seasons, hint, shuffle and finishing, and it can
be skipped and resumed."""

import re

import pytest
from playwright.sync_api import expect

WORDS = {
    "en": {
        "locale": "en-GB",
        "first": "Only free tiles",
        "why": "blocked on both sides",
        "hint": "Hint",
        "shuffle": "Shuffle",
        "done": "Well done",
        "skip": "Skip the tutorial",
    },
    "es": {
        "locale": "es-ES",
        "first": "Solo se pueden retirar",
        "why": "con fichas a ambos lados",
        "hint": "Pista",
        "shuffle": "Mezclar",
        "done": "Muy bien",
        "skip": "Saltar el tutorial",
    },
}


@pytest.fixture
def browser_in(new_device):
    """`browser_in(language)`: a device whose browser speaks that language."""
    return lambda language: new_device(locale=WORDS[language]["locale"])


def tile(page, index):
    return page.locator(f".tile[data-index='{index}']")


def take(page, *indices):
    for index in indices:
        tile(page, index).click()


def expect_step(page, name):
    expect(page.locator("#learn")).to_have_attribute("data-step", name)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_tutorial_is_completed_step_by_step(asgi_server, browser_in, language):
    words = WORDS[language]
    page = browser_in(language)
    page.goto(f"{asgi_server.url}/learn/")
    expect(page.locator("#step-text")).to_contain_text(words["first"])
    take(page, 1)  # the tile between two others: blocked, and the board says why
    expect_step(page, "why")
    expect(page.locator("#message")).to_contain_text(words["why"])
    take(page, 0, 2)
    expect_step(page, "pair")
    take(page, 1, 4)
    expect_step(page, "flowers")
    take(page, 5, 6)  # two different flowers make a pair
    expect_step(page, "seasons")
    take(page, 7, 8)
    expect_step(page, "hint")
    page.get_by_role("button", name=words["hint"], exact=True).click()
    expect(tile(page, 3)).to_have_class(re.compile("hinted"))
    expect_step(page, "hinted")
    take(page, 3, 9)
    expect_step(page, "shuffle")
    page.get_by_role("button", name=words["shuffle"], exact=True).click()
    expect_step(page, "finish")
    take(page, 10, 13, 11, 12)
    expect_step(page, "done")
    expect(page.locator("#step-text")).to_contain_text(words["done"])
    expect(page.locator("#finished")).to_be_visible()
    expect(page.locator(".tile:visible")).to_have_count(0)


def test_a_wrong_pair_is_put_back_and_the_step_stays(asgi_server, browser_in):
    page = browser_in("en")
    page.goto(f"{asgi_server.url}/learn/")
    take(page, 1)
    expect_step(page, "why")
    take(page, 5, 6)  # the flowers, but this step asks for the 3 of dots
    expect(page.locator("#message")).to_contain_text("Not that pair yet")
    expect(tile(page, 5)).to_be_visible()
    expect_step(page, "why")


def test_a_reload_resumes_the_step_and_skip_ends_it(asgi_server, browser_in):
    page = browser_in("es")
    page.goto(f"{asgi_server.url}/learn/")
    take(page, 1)
    take(page, 0, 2)
    expect_step(page, "pair")
    page.reload()
    expect_step(page, "pair")
    expect(tile(page, 0)).to_be_hidden()
    page.get_by_role("button", name=WORDS["es"]["skip"]).click()
    expect_step(page, "done")
    expect(page.locator("#finished")).to_be_visible()

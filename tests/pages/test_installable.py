"""The installable site over HTTP (docs/ARCHITECTURE.md §Installable and offline): the
manifest, the service worker's list of files (read from the hashed static files'
manifest), the offline page in both languages, robots.txt, and the CSP naming the worker
and the manifest. What a browser does with them: tests/browser/test_offline_browser.py."""

import json
import re

import pytest

pytestmark = pytest.mark.django_db


def worker_lists(body: str) -> tuple[str, list[str], dict]:
    version = re.search(r'const VERSION = "([0-9a-f]+)";', body).group(1)
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", body).group(1))
    offline = json.loads(re.search(r"const OFFLINE = (\{.*?\});", body).group(1))
    return version, files, offline


def test_the_worker_keeps_every_file_the_practice_page_loads_by_its_hashed_name(client):
    page = client.get("/play/").content.decode()
    loaded = set(re.findall(r'(?:href|src|data-sprite)="(/static/[^"]+)"', page))
    assert loaded, "the page names its files"
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and "no-cache" in response["Cache-Control"]
    version, files, offline = worker_lists(response.content.decode())
    assert loaded <= set(files), loaded - set(files)
    assert all(re.search(r"\.[0-9a-f]{12}\.", name) for name in files), "hashed names only"
    assert not any(name.startswith("/static/admin/") for name in files)
    assert offline == {"en": "/offline/?lang=en", "es": "/offline/?lang=es"}
    assert (
        client.get("/sw.js").content.decode().count(version) == 1
    )  # the same list, the same version


def test_the_manifest_names_the_app_its_icons_and_its_colours_in_the_players_language(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Carreras de mahjong solitario" and manifest["lang"] == "es"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon


def test_every_page_links_the_manifest_and_says_what_it_is(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<meta name="description" content="[^"]{40,}">', page)
    assert page.count('name="theme-color"') == 2  # light and dark


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "You are offline"), ("es", "Estás sin conexión")]
)
def test_the_offline_page_says_so_in_the_language_asked_for(client, lang, title):
    response = client.get(f"/offline/?lang={lang}")
    body = response.content.decode()
    assert response.status_code == 200 and f'<h1 id="offline-title">{title}</h1>' in body
    assert "csrfmiddlewaretoken" not in body  # kept in a cache: no token, no form


def test_an_unknown_language_falls_back_to_the_visitors(client):
    body = client.get("/offline/?lang=xx", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Estás sin conexión" in body


def test_robots_txt_lets_pages_be_indexed_but_not_the_admin_or_the_api(client):
    response = client.get("/robots.txt")
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *" and "Disallow: /admin/" in lines
    assert "Disallow: /" not in lines


def test_the_csp_lets_only_this_site_give_the_worker_and_the_manifest(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_pages_are_compressed_for_a_browser_that_accepts_gzip(client):
    response = client.get("/play/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"

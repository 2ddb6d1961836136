"""The site as an installable app (docs/ARCHITECTURE.md §Installable and offline): its web
app manifest, its service worker and the page the worker shows when a page cannot be
reached, and robots.txt.

The worker is served from the site's root (`/sw.js`, scope `/`) as a template: its list of
files to keep is read from the static files' manifest (infra/static_storage.py: every name
carries its content's hash), so a deploy with new hashes is a new worker, whose cache
replaces the old one when it takes over.
"""

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

# The kinds of static file a page loads; the admin's own files and the tile sheet's
# preview page (a tool for artists) stay out.
KEPT_SUFFIXES = (".js", ".css", ".svg", ".png", ".woff2")
LEFT_OUT_PREFIXES = ("admin/",)
LEFT_OUT_NAMES = ("mahjong/tiles-preview.html",)
# Bumped when the worker's own code changes in a way the file list does not show.
WORKER_REVISION = "1"
THEME_LIGHT = "#1f5f46"  # site.css --header, light and dark
THEME_DARK = "#0f2a1f"
PAPER_LIGHT = "#f6f1e4"


def kept_files() -> list[str]:
    """The URLs of every static file a page may load, by their hashed names (none when
    the files were not collected, as in development: a worker then keeps only the
    offline pages, and nothing goes stale while files are edited)."""
    hashed = getattr(staticfiles_storage, "hashed_files", None) or {}
    names = sorted(
        name
        for name in hashed
        if name.endswith(KEPT_SUFFIXES)
        and not name.startswith(LEFT_OUT_PREFIXES)
        and name not in LEFT_OUT_NAMES
    )
    return [staticfiles_storage.url(name) for name in names]


def offline_urls() -> dict[str, str]:
    """The offline page in each language, as the worker keeps it."""
    base = reverse("offline")
    return {code: f"{base}?lang={code}" for code, _name in settings.LANGUAGES}


@require_GET
@cache_control(no_cache=True)  # a browser checks for a new worker on every navigation anyway
def service_worker(request):
    files = kept_files()
    offline = offline_urls()
    version = hashlib.sha256(
        json.dumps([WORKER_REVISION, files, sorted(offline.values())]).encode()
    ).hexdigest()[:16]
    context = {
        "version": version,
        "files": json.dumps(files),
        "offline": json.dumps(offline),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
    }
    response = render(request, "pages/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline_page(request):
    """What a page that could not be reached shows: said in the language asked for
    (`?lang=`, the worker keeps one per language), else the visitor's."""
    code = request.GET.get("lang")
    if code not in dict(settings.LANGUAGES):
        code = translation.get_language()
    with translation.override(code):
        response = render(request, "pages/offline.html", {"offline_lang": code})
    response["Content-Language"] = code
    return response


@require_GET
@cache_control(max_age=24 * 3600)
def manifest(request):
    """The web app manifest, in the visitor's language."""
    icons = [
        {"src": static("mahjong/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("mahjong/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("mahjong/icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("mahjong/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    body = {
        "id": "/",
        "name": _("Mahjong solitaire races"),
        "short_name": _("Mahjong races"),
        "description": _(
            "Mahjong solitaire: practise alone, take today's challenge or race friends on "
            "the same deal."
        ),
        "lang": translation.get_language(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": PAPER_LIGHT,
        "theme_color": THEME_LIGHT,
        "categories": ["games"],
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(max_age=24 * 3600)
def robots_txt(request):
    """Every public page may be indexed; the admin and the JSON endpoints are not pages."""
    lines = ["User-agent: *", "Disallow: /admin/", "Disallow: /play/api/", ""]
    return HttpResponse("\n".join(lines), content_type="text/plain")

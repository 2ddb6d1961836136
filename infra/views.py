"""The health checks and the status page (every part, and a live websocket echo).

/livez answers for this web process (balancers), /healthz for the whole site (people and
monitors): docs/OPERATIONS.md §Health."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache

from infra import health


@never_cache
def healthz(request):
    result = health.report()
    return JsonResponse(result, status=200 if result["status"] == "ok" else 503)


@never_cache
def livez(request):
    result = health.liveness()
    return JsonResponse(result, status=200 if result["status"] == "ok" else 503)


def status_page(request):
    # The words of infra/static/infra/status.js, as every page passes them (docs/I18N.md).
    strings = {
        "up": pgettext("status page: a part works", "up"),
        "down": pgettext("status page: a part fails", "down"),
        "open": pgettext("status page: the socket", "open"),
        "closed": pgettext("status page: the socket", "closed, retrying"),
        "via": pgettext("status page: echoed by a process", "via"),
        # The parts /healthz reports (infra/health.py CHECKS), by their keys there.
        "parts": {
            "database": pgettext("status page: a part of the site", "database"),
            "redis": pgettext("status page: a part of the site", "Redis"),
            "worker": pgettext("status page: a part of the site (Celery)", "task worker"),
            "scheduler": pgettext("status page: a part of the site (Celery beat)", "scheduler"),
        },
    }
    return render(request, "status.html", {"strings": strings})

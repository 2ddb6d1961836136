"""The health check and the status page (every part, and a live websocket echo)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from infra import health


@never_cache
def healthz(request):
    result = health.report()
    return JsonResponse(result, status=200 if result["status"] == "ok" else 503)


def status_page(request):
    return render(request, "status.html")

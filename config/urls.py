from django.contrib import admin
from django.urls import include, path

from infra import views as infra_views

urlpatterns = [
    path("", include("pages.urls")),
    path("healthz", infra_views.healthz, name="healthz"),
    path("livez", infra_views.livez, name="livez"),
    path("status/", infra_views.status_page, name="status"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("play/", include("practice.urls")),
    path("layouts/", include("layouts.urls")),
    path("rooms/", include("rooms.urls")),
    path("arenas/", include("arenas.urls")),
    path("ranked/", include("rooms.ranked.urls")),
    path("", include("accounts.urls")),
    path("", include("records.urls")),
    path("replays/", include("replays.urls")),
    path("admin/", admin.site.urls),
]

from django.contrib import admin
from django.urls import path

from mahjong import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("status/", views.status_page, name="status"),
    path("admin/", admin.site.urls),
]

from django.urls import path

from pages import installable, views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("learn/", views.learn_page, name="learn"),
    path("sw.js", installable.service_worker, name="service-worker"),
    path("manifest.webmanifest", installable.manifest, name="manifest"),
    path("offline/", installable.offline_page, name="offline"),
    path("robots.txt", installable.robots_txt, name="robots"),
    path("style/", views.style_page, name="style"),
]

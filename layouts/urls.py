import importlib.util

from django.urls import include, path

from layouts import views

urlpatterns = [
    path("", views.index, name="layouts"),
    path("new/", views.new, name="layouts-new"),
    path("<int:layout_id>/", views.detail, name="layouts-detail"),
    path("<int:layout_id>.svg", views.preview, name="layouts-preview"),
    path("play/<str:key>/", views.play, name="layouts-play"),
]

# The layout editor (its own engineer's files) lives under /layouts/edit/; included once
# its module is there, so each half of the branch works on its own.
if importlib.util.find_spec("layouts.editor_urls") is not None:
    urlpatterns.append(path("edit/", include("layouts.editor_urls")))

"""The layout editor's addresses, included by layouts/urls.py under /layouts/edit/."""

from django.urls import path

from layouts import editor

urlpatterns = [
    path("", editor.editor_page, name="layout-editor"),
    path("<int:layout_id>/", editor.editor_page, name="layout-editor-from"),
    path("<slug:name>/", editor.editor_page, name="layout-editor-from-builtin"),
    path("test", editor.test_layout, name="layout-editor-test"),
    path("export", editor.export_layout, name="layout-editor-export"),
    path("save", editor.save_layout, name="layout-editor-save"),
]

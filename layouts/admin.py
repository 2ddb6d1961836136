"""Admin for stored layouts and the built-in catalog's names (docs/LAYOUTS.md §Admin).

An admin can promote a player's layout to the built-in library, hide one, and edit the
names, all through layouts/actions.py. A layout's shape is never edited and a layout is
never deleted or added here: its codes must deal the same forever, and uploads go through
the limits of `store_layout`.
"""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from layouts import actions
from layouts.models import CatalogOverride, StoredLayout
from mahjong.engine.catalog import BY_NUMBER


def _picture(url: str):
    return format_html('<img src="{}" alt="" height="48" loading="lazy">', url)


@admin.register(StoredLayout)
class StoredLayoutAdmin(admin.ModelAdmin):
    list_display = [
        "key",
        "picture",
        "title_en",
        "title_es",
        "tiles",
        "owner",
        "created_at",
        "built_in",
        "hidden",
    ]
    list_display_links = ["key", "picture"]
    list_filter = ["built_in", "hidden"]
    search_fields = ["title_en", "title_es", "=id"]
    list_select_related = ["owner"]
    fields = [
        "large_picture",
        "title_en",
        "title_es",
        "built_in",
        "hidden",
        "tiles",
        "owner",
        "created_at",
        "layout_text",
    ]
    readonly_fields = ["large_picture", "tiles", "owner", "created_at", "layout_text"]
    actions = ["promote", "demote", "hide", "show"]

    @admin.display(description="code", ordering="pk")
    def key(self, row):
        return f"U{row.pk}"

    @admin.display(description="preview")
    def picture(self, row):
        return _picture(reverse("layouts-preview", args=[row.pk]))

    @admin.display(description="preview")
    def large_picture(self, row):
        return format_html(
            '<img src="{}" alt="" height="200">',
            reverse("layouts-preview", args=[row.pk]),
        )

    @admin.display(description="KMahjongg text")
    def layout_text(self, row):
        return format_html("<pre>{}</pre>", row.text)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        actions.edit_stored(
            obj, data["title_en"], data["title_es"], data["hidden"], data["built_in"]
        )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _flag(self, request, queryset, done: str, **flags):
        count = actions.set_flags(queryset, **flags)
        self.message_user(request, f"{count} layout(s) {done}")

    @admin.action(description="Promote to the built-in library")
    def promote(self, request, queryset):
        self._flag(request, queryset, "promoted to the library", built_in=True)

    @admin.action(description="Take out of the built-in library")
    def demote(self, request, queryset):
        self._flag(request, queryset, "taken out of the library", built_in=False)

    @admin.action(description="Hide (off the picker; its codes still play)")
    def hide(self, request, queryset):
        self._flag(request, queryset, "hidden", hidden=True)

    @admin.action(description="Show again")
    def show(self, request, queryset):
        self._flag(request, queryset, "shown", hidden=False)


@admin.register(CatalogOverride)
class CatalogOverrideAdmin(admin.ModelAdmin):
    """Names for a built-in layout, or hiding it from the picker (its codes still play)."""

    list_display = ["__str__", "picture", "catalog_name", "title_en", "title_es", "hidden"]

    @admin.display(description="preview")
    def picture(self, row):
        entry = BY_NUMBER.get(row.number)
        return _picture(reverse("play-layout-preview", args=[entry.name])) if entry else "—"

    @admin.display(description="catalog name")
    def catalog_name(self, row):
        entry = BY_NUMBER.get(row.number)
        return entry.name if entry else "unknown number"

    def save_model(self, request, obj, form, change):
        actions.override_catalog(obj)

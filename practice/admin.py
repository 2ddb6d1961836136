"""Solo games in the admin: history, viewable and never edited (accounts.admin.HistoryAdmin)."""

from django.contrib import admin

from accounts.admin import HistoryAdmin
from practice.models import SoloGame


@admin.register(SoloGame)
class SoloGameAdmin(HistoryAdmin):
    list_display = ["id", "code", "player", "layout_number", "status", "time_ms", "started_at"]
    list_filter = ["status", "layout_number"]
    search_fields = ["code", "player__nickname"]
    list_select_related = ["player"]

"""Solo games in the admin: history, viewable and never edited (accounts.admin.HistoryAdmin),
but for clearing a pace flag (docs/RULES.md §Fair play)."""

from django.contrib import admin

from accounts.admin import HistoryAdmin
from practice import actions
from practice.models import SoloGame


@admin.register(SoloGame)
class SoloGameAdmin(HistoryAdmin):
    list_display = [
        "id", "code", "player", "layout_number", "status", "time_ms", "started_at",
        "pace_flagged", "pace_median_ms", "pace_spread", "played_offline",
    ]  # fmt: skip
    list_filter = ["pace_flagged", "played_offline", "status", "layout_number"]
    search_fields = ["code", "player__nickname"]
    list_select_related = ["player"]
    actions = ["clear_pace_flag"]

    def has_review_permission(self, request):
        return request.user.has_perm("practice.change_sologame")

    @admin.action(description="Clear the pace flag (a fast human)", permissions=["review"])
    def clear_pace_flag(self, request, queryset):
        cleared = actions.clear_pace_flags(queryset)
        self.message_user(request, f"{cleared} win(s) cleared: they count again")

"""Admin for arenas (docs/RULES.md §Arenas): schedules and arenas are edited here; the
players' places, the races an arena owns and their scores are history, viewable only
(an edited row would falsify the table), with one staff write: "Score again" recomputes
an arena's table from its races (arenas.scoring.rescore_arena)."""

from django.contrib import admin, messages

from accounts.admin import HistoryAdmin
from arenas import scoring
from arenas.models import Arena, ArenaPlayer, ArenaRace, ArenaResult, ArenaSchedule


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = ["name", "level", "layout", "every", "at_hour", "at_minute", "minutes", "active"]
    list_filter = ["active", "every", "level"]


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    fields = ["nickname", "player", "state", "points", "races", "streak", "best_ms", "all_in"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "level", "starts_at", "minutes", "public", "status", "creator"]
    list_filter = ["status", "public", "level"]
    search_fields = ["code", "name"]
    readonly_fields = ["code", "status", "finished_at", "created_at", "creator", "schedule"]
    inlines = [ArenaPlayerInline]
    actions = ["score_again"]

    @admin.action(description="Score again from the races")
    def score_again(self, request, queryset):
        for arena in queryset:
            scoring.rescore_arena(arena)
        self.message_user(request, f"{queryset.count()} arena(s) scored again", messages.SUCCESS)


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(HistoryAdmin):
    list_display = ["nickname", "arena", "state", "points", "races", "streak", "best_ms"]
    list_filter = ["state"]
    search_fields = ["nickname", "arena__code"]


@admin.register(ArenaRace)
class ArenaRaceAdmin(HistoryAdmin):
    list_display = ["arena", "race", "created_at", "scored_at"]


@admin.register(ArenaResult)
class ArenaResultAdmin(HistoryAdmin):
    list_display = [
        "arena_player",
        "arena",
        "points",
        "share",
        "top_half",
        "streak_applied",
        "all_in",
        "finished_in_time",
        "flagged",
        "stand_in",
        "ended_at",
    ]
    list_filter = ["flagged", "streak_applied", "all_in"]

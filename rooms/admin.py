"""Admin for the site defaults, rooms, races, results and moves.

The site defaults are one editable record (docs/RULES.md §Local rules and site defaults);
a new room copies them and a race keeps the rules it started with, so an edit never
reaches a running race. Rooms, races, results and moves are history: viewable only,
since an edited row would falsify results, tables and ratings. The one staff write is
"End race now", through rooms.race.end like every other write.
"""

from django.contrib import admin, messages
from django.shortcuts import redirect

from accounts.admin import HistoryAdmin
from rooms.core import errors, outbox
from rooms.models import Entry, Move, QueueEntry, Race, Room, Seat, SiteDefaults
from rooms.race import end as race_end
from rooms.ranked import fair_play


@admin.register(SiteDefaults)
class SiteDefaultsAdmin(admin.ModelAdmin):
    """One row: the list goes straight to it, and it can be neither added nor deleted.
    The form validates with the model's own validators and choices."""

    def changelist_view(self, request, extra_context=None):
        # The row is made by a migration; an emptied table gets it back here, on an
        # admin's visit, not on every read.
        SiteDefaults.objects.get_or_create(pk=1)
        return redirect("admin:rooms_sitedefaults_change", 1)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["nickname", "player", "cpu_level", "joined_at", "last_seen_at", "win_streak"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Room)
class RoomAdmin(HistoryAdmin):
    list_display = ["code", "owner", "ranked", "level", "created_at"]
    list_filter = ["ranked", "level"]
    search_fields = ["code", "owner__nickname"]
    list_select_related = ["owner"]
    inlines = [SeatInline]


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["seat", "level", "status", "pairs_removed", "finished_ms", "place", "points"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["place", "pk"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Race)
class RaceAdmin(HistoryAdmin):
    list_display = ["__str__", "status", "started_at", "cut_off_at", "finished_at"]
    list_filter = ["status", "room__ranked"]
    search_fields = ["room__code"]
    list_select_related = ["room"]
    inlines = [EntryInline]
    actions = ["end_race_now"]

    def has_end_permission(self, request):
        # Ending a race writes results (and ratings): for staff who may change races.
        return request.user.has_perm("rooms.change_race")

    @admin.action(description="End race now", permissions=["end"])
    def end_race_now(self, request, queryset):
        for race in queryset.select_related("room"):
            try:
                with outbox.sent_after():
                    race_end.end_race_by_staff(race.room.code)
            except errors.RoomError as refused:
                self.message_user(request, f"{race}: {refused.message}", messages.WARNING)
            else:
                self.message_user(request, f"{race}: ended")


@admin.register(Entry)
class EntryAdmin(HistoryAdmin):
    """Results: one seat's board in one race."""

    list_display = [
        "race", "seat", "level", "status", "place", "points", "finished_ms",
        "pace_flagged", "pace_median_ms", "pace_spread", "voided",
    ]  # fmt: skip
    list_filter = ["pace_flagged", "voided", "status", "level"]
    search_fields = ["race__room__code", "seat__nickname"]
    list_select_related = ["race__room", "seat"]
    exclude = ["faces", "positions", "alive"]  # the deal's faces: a long, unreadable list
    actions = ["clear_pace_flag", "void_and_ban"]

    def has_review_permission(self, request):
        return request.user.has_perm("rooms.change_entry")

    @admin.action(description="Clear the pace flag (a fast human)", permissions=["review"])
    def clear_pace_flag(self, request, queryset):
        cleared = fair_play.clear_flags(queryset)
        self.message_user(request, f"{cleared} result(s) cleared: they count again")

    @admin.action(description="Void the result and ban from ranked play", permissions=["review"])
    def void_and_ban(self, request, queryset):
        voided = fair_play.void_and_ban(queryset)
        self.message_user(request, f"{voided} result(s) voided, their players banned from ranked")


@admin.register(Move)
class MoveAdmin(HistoryAdmin):
    list_display = ["entry", "number", "kind", "tiles", "at", "by_cpu"]
    list_filter = ["kind", "by_cpu"]
    list_select_related = ["entry__race__room", "entry__seat"]


@admin.register(QueueEntry)
class QueueEntryAdmin(HistoryAdmin):
    list_display = ["player", "level", "joined_at"]
    list_filter = ["level"]

"""Admin for players and ratings. Ratings (like solo games and races) are history: viewable,
never edited or deleted here, since a changed row would falsify records and boards."""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from accounts import actions
from accounts.forms import ThrottledAdminLoginForm
from accounts.models import Player, Rating, RatingChange

# The admin's login is the most valuable one to guess: the same throttle guards it.
admin.site.login_form = ThrottledAdminLoginForm


class HistoryAdmin(admin.ModelAdmin):
    """View-only: no add, change or delete, for admins included."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlayerForm(forms.ModelForm):
    def clean_nickname(self):
        # The same rules as the player's own form; empty is allowed here, to clear one.
        nickname = self.cleaned_data["nickname"]
        if not nickname:
            return ""
        try:
            return actions.clean_nickname(nickname)
        except actions.NicknameError as refused:
            raise forms.ValidationError(str(refused)) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["id", "nickname", "user", "merged_into", "created_at", "last_seen_at"]
    search_fields = ["nickname", "user__username"]
    list_filter = [("user", admin.EmptyFieldListFilter)]
    # The device token is a credential: it never shows, not even to admins.
    fields = ["nickname", "user", "merged_into", "created_at", "last_seen_at"]
    readonly_fields = ["user", "merged_into", "created_at", "last_seen_at"]

    def has_add_permission(self, request):
        return False  # players come from devices, not from the admin


@admin.register(Rating)
class RatingAdmin(HistoryAdmin):
    list_display = ["player", "shown", "deviation", "games", "provisional", "rated_at"]
    search_fields = ["player__nickname"]
    list_select_related = ["player"]
    ordering = ["-value"]

    @admin.display(boolean=True)
    def provisional(self, rating):
        return rating.provisional


@admin.register(RatingChange)
class RatingChangeAdmin(HistoryAdmin):
    list_display = ["player", "before", "after", "place", "field_size", "race", "created_at"]
    search_fields = ["player__nickname"]
    list_filter = ["created_at"]
    list_select_related = ["player"]

    @admin.display(description="race", ordering="race_ref")
    def race(self, change):
        if change.race_ref is None:
            return "–"
        url = reverse("admin:rooms_race_change", args=[change.race_ref])
        return format_html('<a href="{}">race {}</a>', url, change.race_ref)

"""Layouts players brought or drew, stored for good (docs/LAYOUTS.md).

A stored layout's id is the `U<id>` of its game codes, and its text never changes once
stored (only its names and flags do), so a code on it names the same deal forever.
Rows are written only by layouts/actions.py.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Player

TITLE_MAX_LENGTH = 60


class StoredLayout(models.Model):
    # The KMahjongg v1.1 text as the engine writes it (layout_to_text): one spelling per
    # shape, so `shape_key` (its SHA-256) finds a player's identical uploads.
    text = models.TextField(editable=False)
    shape_key = models.CharField(max_length=64, editable=False)
    tiles = models.PositiveIntegerField(editable=False)
    owner = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="stored_layouts",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    title_en = models.CharField(_("name in English"), max_length=TITLE_MAX_LENGTH, blank=True)
    title_es = models.CharField(_("name in Spanish"), max_length=TITLE_MAX_LENGTH, blank=True)
    # Hidden: off the picker and the share page's listing; its codes still deal, since a
    # code is forever (docs/LAYOUTS.md §Stored layouts).
    hidden = models.BooleanField(_("hidden"), default=False)
    # Promoted by an admin: listed with the library, before players' own layouts.
    built_in = models.BooleanField(_("in the built-in library"), default=False)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            models.Index(fields=["owner", "shape_key"], name="layouts_owner_shape_idx"),
            models.Index(fields=["created_at"], name="layouts_created_idx"),
        ]

    def __str__(self) -> str:
        return f"U{self.pk} {self.title_en or ''} ({self.tiles} tiles)".replace("  ", " ")

    def title(self, language: str = "en") -> str:
        """The display name in a language, like CatalogEntry.title; a number when unnamed."""
        if language.startswith("es") and self.title_es:
            return self.title_es
        return self.title_en or self.title_es or f"U{self.pk}"


class CatalogOverride(models.Model):
    """An admin's names for a built-in layout, or its removal from the picker: the
    catalog itself is code (mahjong/engine/catalog.py) and its codes never change, so
    only what the picker shows is overridden (docs/LAYOUTS.md §Admin)."""

    number = models.PositiveSmallIntegerField(_("built-in layout number"), unique=True)
    title_en = models.CharField(_("name in English"), max_length=TITLE_MAX_LENGTH, blank=True)
    title_es = models.CharField(_("name in Spanish"), max_length=TITLE_MAX_LENGTH, blank=True)
    hidden = models.BooleanField(_("hidden from the picker"), default=False)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"L{self.number:02d}"

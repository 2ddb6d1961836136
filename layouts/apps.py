from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LayoutsConfig(AppConfig):
    name = "layouts"
    verbose_name = _("Layouts")

    def ready(self) -> None:
        from accounts.signals import player_merged
        from layouts import actions
        from layouts.library import stored_text
        from mahjong import deals

        player_merged.connect(actions.take_over_layouts, dispatch_uid="layouts.take_over_layouts")
        deals.register_stored_layouts(stored_text)

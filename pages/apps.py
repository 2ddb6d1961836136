from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The site's own pages: home, rules, learn."""

    name = "pages"
    verbose_name = "Pages"

from django.apps import AppConfig


class RecordsConfig(AppConfig):
    """Read-only views over practice, races and ratings: personal records, statistics,
    profiles and the site's leaderboards. Nothing here writes a game, a race or a rating;
    /me/'s nickname form stores through accounts.actions.set_nickname."""

    name = "records"
    verbose_name = "Records and leaderboards"

from django.apps import AppConfig


class InfraConfig(AppConfig):
    """The site's plumbing, apart from the game: settings helpers, the embedded Redis,
    Redis clients, channel sends, the socket cap, health checks, the status page with its
    echo socket, the scheduler's heartbeat and the management commands (serve, health)."""

    name = "infra"
    verbose_name = "Infrastructure"

from django.apps import AppConfig


class LucieConfig(AppConfig):
    """The project itself, installed so it can hook start-up."""

    name = "lucie"
    verbose_name = "La Belle Lucie (site)"

    def ready(self) -> None:
        from lucie.db import connect_signals

        connect_signals()

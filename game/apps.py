from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "La Belle Lucie"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_init, post_save

        from game import counters
        from game.daily import figures as daily_figures
        from game.models import Game

        # Everyone's daily figures are cached and shared by the app servers: a game that changes
        # them drops them, on whichever server it was played. (No post_delete receiver: it would
        # stop Django deleting in bulk, and `prune` never deletes a game the figures count.)
        post_init.connect(daily_figures.remember_counted, sender=Game)
        post_save.connect(daily_figures.forget_after_save, sender=Game)
        # Moves and games for the Prometheus metrics.
        post_init.connect(counters.remember, sender=Game)
        post_save.connect(counters.count, sender=Game)

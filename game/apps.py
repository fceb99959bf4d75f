from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "La Belle Lucie"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_init, post_save

        from game import counters
        from game.models import Game

        # Moves and games for the Prometheus metrics, and everyone's daily figures (cached and
        # shared by the app servers: a game that changes them drops them, on whichever server
        # it was played). No post_delete receiver: it would stop Django deleting in bulk, and
        # `prune` never deletes a game the figures count.
        post_init.connect(counters.remember, sender=Game)
        post_save.connect(counters.count, sender=Game)

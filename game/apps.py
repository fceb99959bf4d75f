from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "game"
    verbose_name = "La Belle Lucie"
    default_auto_field = "django.db.models.BigAutoField"

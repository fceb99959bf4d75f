"""One daily game in play per session and deal (game_one_daily_in_play).

Rows made before the constraint by simultaneous first moves may hold several: the session's
daily entry stays in play (else its newest game), the others are closed as left unfinished,
as store.start would have closed them one at a time."""

from django.db import migrations, models
from django.db.models import Count


def close_extra_games_in_play(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    playing = Game.objects.filter(daily=True, status="playing")
    crowded = (
        playing.values("session_key", "deal_number")
        .annotate(count=Count("pk"))
        .filter(count__gt=1)
    )
    for group in crowded:
        games = list(
            playing.filter(
                session_key=group["session_key"], deal_number=group["deal_number"]
            ).order_by("-daily_entry", "-created_at", "-pk")
        )
        for game in games[1:]:
            game.status = "abandoned"
            game.finished_at = game.updated_at
            game.clock_since = None
            game.save(update_fields=["status", "finished_at", "clock_since", "updated_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0010_daily_rank_challenge"),
    ]

    operations = [
        migrations.RunPython(close_extra_games_in_play, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("daily", True), ("status", "playing")),
                fields=("session_key", "deal_number"),
                name="game_one_daily_in_play",
            ),
        ),
    ]

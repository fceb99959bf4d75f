import django.utils.timezone
from django.db import migrations, models


def mark_daily_games(apps, schema_editor):
    """Games from before the flag: the daily entries were begun from a daily page."""
    Game = apps.get_model("game", "Game")
    Game.objects.filter(daily_entry=True).update(daily=True)


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0006_daily_entry_paused_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="daily",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="network",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.AddField(
            model_name="game",
            name="wall_ms",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_daily_entries",
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("daily_entry", True), ("started_at__isnull", False)),
                fields=["rules", "deal_number", "status", "assisted", "wall_ms", "move_count"],
                name="game_daily_entries",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["status", "updated_at"], name="game_status_updated"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("daily_entry", True), models.Q(("network", ""), _negated=True)),
                fields=("network", "deal_number"),
                name="game_one_daily_entry_per_network",
            ),
        ),
        migrations.RunPython(mark_daily_games, migrations.RunPython.noop),
        migrations.CreateModel(
            name="Transfer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("code_hash", models.CharField(max_length=64, unique=True)),
                ("session_key", models.CharField(db_index=True, max_length=40)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("expires_at", models.DateTimeField()),
                ("used_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
    ]

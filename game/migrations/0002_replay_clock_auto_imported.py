"""Replay links, the fair timer, auto-move flags and imported records (issue 8).

`replay_token` must be unique, so existing games get one each before the constraint is added
(a plain AddField with a callable default would give every row the same value).
"""

from django.db import migrations, models

import game.models
from game.models import new_token


def give_replay_tokens(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    for pk in Game.objects.filter(replay_token__isnull=True).values_list("pk", flat=True):
        Game.objects.filter(pk=pk).update(replay_token=new_token())


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="replay_token",
            field=models.CharField(max_length=64, null=True, editable=False),
        ),
        migrations.RunPython(give_replay_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="replay_token",
            field=models.CharField(
                default=game.models.new_token, editable=False, max_length=64, unique=True
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="clock_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="auto_flags",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="game",
            name="imported",
            field=models.BooleanField(default=False),
        ),
    ]

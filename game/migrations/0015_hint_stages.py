"""The hint's second stage counted apart (Game.hint_places). Every hint shown before this
migration showed the card and where it goes at once, so each counts as taken to its second
stage: `hint_places` starts equal to `hints` (a hint that said "Redeal now" had no place to show,
and is counted so too: those cannot be told apart afterwards)."""

from django.db import migrations, models
from django.db.models import F


def whole_hints_so_far(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Game.objects.filter(hints__gt=0).update(hint_places=F("hints"))


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0014_strict_mode"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="hint_places",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(whole_hints_so_far, migrations.RunPython.noop, elidable=True),
    ]

"""A game row written by a test as the site's change writes it: the save and what follows it
(game/ending.py: the metrics, the daily tally, a game's end), in one transaction."""

from __future__ import annotations

from django.db import transaction

from game import ending
from game.models import Game


def saved(game: Game, **fields: object) -> Game:
    """Set `fields` on `game` (new, or as loaded) and save it as a change does: what the
    counters read of the stored row before, the save, then game.ending.saved."""
    with transaction.atomic():
        stored = Game.objects.filter(pk=game.pk).first() if game.pk is not None else None
        before = ending.seen(stored) if stored is not None else ending.FRESH
        for name, value in fields.items():
            setattr(game, name, value)
        game.save()
        ending.saved(game, before)
    return game


def created(**fields: object) -> Game:
    """A new game row with `fields`, saved as a change saves it (Game.objects.create's
    counterpart)."""
    return saved(Game(**fields))

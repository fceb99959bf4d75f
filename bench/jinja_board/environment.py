"""The Jinja2 environment of bench/render.py's prototype board (not used by the site): Django's
gettext, the card markup of game/templatetags/cards.py and the rule-set filter."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from jinja2 import Environment

from game.templatetags import cards, rulesets


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(card=cards.card_markup, face=cards.face, sprite=cards.sprite)
    env.filters.update(rules_describe=rulesets.rules_describe)
    return env

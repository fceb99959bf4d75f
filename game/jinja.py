"""The Jinja2 environment of the board's templates (game/jinja2/board/): the one part of the
site that Jinja2 renders, because a move's answer is rendered on every move and Django's template
engine took about 2.2 times as long over it (docs/architecture.md, "The board's renderer").

Every other page is a Django template, and one that shows a board or a part of it (the felt of a
replay, the rules page's example fans) takes it through `{% board_part %}`
(game/templatetags/board.py), so each of the board's templates exists once. The words are
Django's gettext, so the board is in the page's language from the same catalogues; `makemessages`
reads the `.jinja` files too (game/management/commands/makemessages.py). Autoescaping is on, as
in Django's templates, and Django's safe strings (`SafeString`) stay safe here.
"""

from __future__ import annotations

from typing import Any

from django.utils import text, translation
from jinja2 import Environment

from game.board import table, words
from game.templatetags import card_tags


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        face=table.face_markup,
        fans_markup=table.fans_markup,
        sprite=table.sprite,
        top_card_template=table.top_card_template,
        board_words_json=card_tags.board_words_json,
    )
    env.filters.update(
        rules_describe=words.rules_described,
        move_words=words.describe,
        capfirst=text.capfirst,
    )
    return env

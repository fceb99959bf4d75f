"""The board templates' `_()` and `pgettext()` (game/jinja.py) give what Jinja2's own i18n
wrappers give, remembered per language: safe translations, escaped variables, "%%" as "%"."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation
from jinja2 import Environment

from game import jinja

TEMPLATES = [
    "{{ _('Undo') }}",
    "{{ _('Move <b>%(step)s</b> of %(total)s:', step=3, total='<i>40</i>') }}",
    "{{ _('Fan %(number)s: empty', number=4) }}",
    "{{ _('100%% sure') }}",
    "{{ pgettext('game controls', 'New game') }}",
    "{% trans count=2 %}one card{% pluralize %}{{ count }} cards{% endtrans %}",
]


def jinjas_own() -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], autoescape=True)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext, translation.ngettext, newstyle=True, pgettext=translation.pgettext
    )
    return env


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("source", TEMPLATES)
def test_the_boards_words_are_jinjas_own(language: str, source: str) -> None:
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    with translation.override(language):
        expected = jinjas_own().from_string(source).render()
        assert ours.from_string(source).render() == expected
        assert ours.from_string(source).render() == expected  # from the memory, the same


def test_the_board_templates_use_the_remembered_words() -> None:
    ours = engines["jinja2"].env  # type: ignore[attr-defined]
    assert ours.globals["gettext"] is jinja.template_gettext
    assert ours.globals["pgettext"] is jinja.template_pgettext

"""`{{ game.rules|rules_label }}`: a stored rule-set name as players read it, in the page's
language; `{{ rules|rules_describe }}`: the rule set and its options in a line;
`{{ move|move_words }}`: a move in words.

The engine's `Rules.label` and `Rules.describe` are the English words (and the one source of
what a rule set is); these filters say the same in the page's language, built from the rule set's
values, so that statistics tabs, replays, records and the board all show them alike.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from game import engine
from game.board import words

register = template.Library()

LAYOUT_TITLES = {
    engine.Layout.STANDARD: pgettext_lazy("a rule set's name", "La Belle Lucie"),
    engine.Layout.TREFOIL: pgettext_lazy("a rule set's name", "Trefoil"),
    engine.Layout.SIXTEEN: pgettext_lazy("a rule set's name", "Sixteen fans"),
}
NO_MERCI = gettext_lazy("La Belle Lucie, no merci")


def _title(rules: engine.Rules) -> tuple[str, bool]:
    no_merci_base = (
        rules.layout is engine.Layout.STANDARD and rules.mercis == 0 and rules.redeals is not None
    )
    return (str(NO_MERCI) if no_merci_base else str(LAYOUT_TITLES[rules.layout])), no_merci_base


def _redeals(n: int) -> str:
    return ngettext("%(count)s redeal", "%(count)s redeals", n) % {"count": n}


def _mercis(n: int) -> str:
    return ngettext("%(count)s merci", "%(count)s mercis", n) % {"count": n}


def label(rules: engine.Rules) -> str:
    """The engine's Rules.label in the page's language: "Sixteen fans (3 redeals, Kings fill
    empty fans)"."""
    title, no_merci_base = _title(rules)
    changes = []
    if rules.redeals is None:
        changes.append(_("unlimited redeals, no merci"))
    else:
        if rules.redeals != 2:
            changes.append(_("no redeal") if rules.redeals == 0 else _redeals(rules.redeals))
        if rules.mercis != (0 if no_merci_base else 1):
            changes.append(_("no merci") if rules.mercis == 0 else _mercis(rules.mercis))
    if rules.free_merci:
        changes.append(_("free merci"))
    if rules.kings_fill_empty:
        changes.append(_("Kings fill empty fans"))
    if not changes:
        return title
    return _("%(title)s (%(changes)s)") % {"title": title, "changes": ", ".join(changes)}


def describe(rules: engine.Rules) -> str:
    """The engine's Rules.describe in the page's language: "La Belle Lucie: 2 redeals, 1 merci"."""
    title, _base = _title(rules)
    redeals = _("unlimited redeals") if rules.redeals is None else _redeals(rules.redeals)
    details = [redeals, _mercis(rules.mercis)]
    if rules.free_merci:
        details.append(_("free merci"))
    if rules.kings_fill_empty:
        details.append(_("Kings may fill an empty fan"))
    return _("%(title)s: %(details)s") % {"title": title, "details": ", ".join(details)}


@register.filter
def rules_label(name: str | engine.Rules) -> str:
    try:
        rules = name if isinstance(name, engine.Rules) else engine.Rules.parse(name)
    except engine.InvalidRulesError:
        return str(name)  # never stored, but a page should not fail over a name
    return label(rules)


@register.filter
def rules_describe(rules: engine.Rules) -> str:
    return describe(rules)


@register.filter
def move_words(move: engine.Move) -> str:
    return words.describe(move)

"""A rule set's name and description in the page's language, and the words of its options
that the board and the forms show (the layouts' names, the app's game, a card that may only go
home).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from game import engine

# The engine's `Rules.label` and `Rules.describe` are the English words (and the one source of
# what a rule set is); these say the same in the page's language, built from the rule set's
# values, so that statistics tabs, replays, records and the board all show them alike.

LAYOUT_TITLES = {
    engine.Layout.STANDARD: pgettext_lazy("a rule set's name", "La Belle Lucie"),
    engine.Layout.TREFOIL: pgettext_lazy("a rule set's name", "Trefoil"),
    engine.Layout.SIXTEEN: pgettext_lazy("a rule set's name", "Sixteen fans"),
}
NO_MERCI = gettext_lazy("La Belle Lucie, no merci")
# Translators: the rule set of the La Belle Lucie app: the free merci, and a card moved from one
# fan to another may then only go home.
APP_GAME = gettext_lazy("the app's game")
# Translators: said after a card's name to a screen reader, and as the card's tooltip, under the
# rule that a card moved from one fan to another may then only go to its foundation.
ONLY_HOME = gettext_lazy("moved once: it may only go home")

# The rule book's options that are on or off, each in the two ways the site says it: in a rule
# set's name (short, after the title) and in its description (whole). One row per option, read
# by both, so an option added to the engine is worded in one place.
OPTION_WORDS = (
    ("free_merci", gettext_lazy("free merci"), gettext_lazy("free merci")),
    (
        "once",
        gettext_lazy("a moved card only goes home"),
        gettext_lazy("a card moved onto another fan may then only go home"),
    ),
    (
        "stuck",
        gettext_lazy("merci only when stuck"),
        gettext_lazy("the merci only when no other move is left"),
    ),
    (
        "kings_fill_empty",
        gettext_lazy("Kings fill empty fans"),
        gettext_lazy("Kings may fill an empty fan"),
    ),
)


def _options(rules: engine.Rules, *, whole: bool) -> list[str]:
    """The words of each option `rules` turns on, short or `whole`."""
    return [
        str(long if whole else short) for name, short, long in OPTION_WORDS if getattr(rules, name)
    ]


def _title(rules: engine.Rules) -> tuple[str, bool]:
    no_merci_base = (
        rules.layout is engine.Layout.STANDARD and rules.mercis == 0 and rules.redeals is not None
    )
    return (str(NO_MERCI) if no_merci_base else str(LAYOUT_TITLES[rules.layout])), no_merci_base


def _redeals(n: int) -> str:
    return ngettext("%(count)s redeal", "%(count)s redeals", n) % {"count": n}


def _mercis(n: int) -> str:
    return ngettext("%(count)s merci", "%(count)s mercis", n) % {"count": n}


def rules_label(rules: engine.Rules) -> str:
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
    changes += _options(rules, whole=False)
    if not changes:
        return title
    return _("%(title)s (%(changes)s)") % {"title": title, "changes": ", ".join(changes)}


def rules_described(rules: engine.Rules) -> str:
    """The engine's Rules.describe in the page's language: "La Belle Lucie: 2 redeals, 1 merci"."""
    title, _base = _title(rules)
    redeals = _("unlimited redeals") if rules.redeals is None else _redeals(rules.redeals)
    details = [redeals, _mercis(rules.mercis), *_options(rules, whole=True)]
    return _("%(title)s: %(details)s") % {"title": title, "details": ", ".join(details)}

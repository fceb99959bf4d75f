"""The new-game chooser: a rule set and the options that may change it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from game import engine
from game.board.words import APP_GAME, LAYOUT_TITLES, NO_MERCI

_RULE_SET_DETAILS = {
    "lucie": (LAYOUT_TITLES[engine.Layout.STANDARD], gettext_lazy("2 redeals, 1 merci")),
    "nomerci": (NO_MERCI, gettext_lazy("2 redeals")),
    "trefoil": (
        LAYOUT_TITLES[engine.Layout.TREFOIL],
        gettext_lazy("the Aces start at home, 16 fans"),
    ),
    "sixteen": (
        LAYOUT_TITLES[engine.Layout.SIXTEEN],
        gettext_lazy("16 fans of three and two of two"),
    ),
    engine.APP_RULES.name: (
        format_lazy("{}, {}", LAYOUT_TITLES[engine.Layout.STANDARD], APP_GAME),
        gettext_lazy("a free merci, and a card moved onto another fan then only goes home"),
    ),
}
RULE_SET_CHOICES = [
    (name, format_lazy(gettext_lazy("{title}: {detail}"), title=title, detail=detail))
    for name, (title, detail) in _RULE_SET_DETAILS.items()
]
AS_THE_RULES_SAY = gettext_lazy("as the rule set says")
NONE = pgettext_lazy("no redeal, no merci", "none")
REDEAL_CHOICES = [
    ("", AS_THE_RULES_SAY),
    ("0", NONE),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("u", gettext_lazy("unlimited (no merci)")),
]
MERCI_CHOICES = [("", AS_THE_RULES_SAY), ("0", NONE), ("1", "1"), ("2", "2")]


class NewGameForm(forms.Form):
    rule_set = forms.ChoiceField(
        choices=RULE_SET_CHOICES, initial="lucie", widget=forms.RadioSelect
    )
    redeals = forms.ChoiceField(choices=REDEAL_CHOICES, required=False, initial="")
    mercis = forms.ChoiceField(choices=MERCI_CHOICES, required=False, initial="")
    free_merci = forms.BooleanField(
        required=False, label=gettext_lazy("Free merci: the drawn card may go on any fan")
    )
    kings = forms.BooleanField(required=False, label=gettext_lazy("Kings may fill an empty fan"))
    once = forms.BooleanField(
        required=False,
        label=gettext_lazy("A card moved onto another fan may then only go home"),
    )
    stuck = forms.BooleanField(
        required=False, label=gettext_lazy("The merci only when no other move is left")
    )
    deal = forms.CharField(
        required=False,
        max_length=25,
        label=gettext_lazy("Deal number (leave empty for a random deal)"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def clean_deal(self) -> int | None:
        text = self.cleaned_data.get("deal", "").strip()
        if not text:
            return None
        try:
            return engine.parse_deal_number(text)
        except engine.InvalidDealError as error:
            raise forms.ValidationError(_sentence(str(error))) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        preset = engine.PRESETS[data["rule_set"]]
        redeals: int | None = preset.redeals
        if data["redeals"] == "u":
            redeals = None
        elif data["redeals"]:
            redeals = int(data["redeals"])
        mercis = preset.mercis if data["mercis"] == "" else int(data["mercis"])
        if redeals is None and data["mercis"] == "":
            mercis = 0  # unlimited redeals allow no merci: do not make the player untick it
        try:
            data["rules"] = engine.Rules(
                preset.layout,
                redeals,
                mercis,
                data["free_merci"] or preset.free_merci,
                data["kings"] or preset.kings_fill_empty,
                data["once"] or preset.once,
                data["stuck"] or preset.stuck,
            )
        except engine.InvalidRulesError as error:
            raise forms.ValidationError(
                _("Those options do not go together: %(error)s.") % {"error": error}
            ) from None
        return data

    def remembered(self) -> dict[str, Any]:
        """The choices to offer again next time (the deal number is not remembered)."""
        keys = ("rule_set", "redeals", "mercis", "free_merci", "kings", "once", "stuck")
        return {key: self.cleaned_data[key] for key in keys}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")

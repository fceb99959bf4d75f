"""The new-game chooser: a rule set and the options that may change it."""

from __future__ import annotations

from typing import Any

from django import forms

from game import engine

_RULE_SET_DETAILS = {
    "lucie": "2 redeals, 1 merci",
    "nomerci": "2 redeals",
    "trefoil": "the Aces start at home, 16 fans",
    "sixteen": "16 fans of three and two of two",
}
RULE_SET_CHOICES = [
    (name, f"{engine.PRESETS[name].label}: {detail}") for name, detail in _RULE_SET_DETAILS.items()
]
REDEAL_CHOICES = [
    ("", "as the rule set says"),
    ("0", "none"),
    ("1", "1"),
    ("2", "2"),
    ("3", "3"),
    ("u", "unlimited (no merci)"),
]
MERCI_CHOICES = [("", "as the rule set says"), ("0", "none"), ("1", "1"), ("2", "2")]


class NewGameForm(forms.Form):
    rule_set = forms.ChoiceField(
        choices=RULE_SET_CHOICES, initial="lucie", widget=forms.RadioSelect
    )
    redeals = forms.ChoiceField(choices=REDEAL_CHOICES, required=False, initial="")
    mercis = forms.ChoiceField(choices=MERCI_CHOICES, required=False, initial="")
    free_merci = forms.BooleanField(
        required=False, label="Free merci: the drawn card may go on any fan"
    )
    kings = forms.BooleanField(required=False, label="Kings may fill an empty fan")
    deal = forms.CharField(
        required=False,
        max_length=25,
        label="Deal number (leave empty for a random deal)",
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
                preset.layout, redeals, mercis, data["free_merci"], data["kings"]
            )
        except engine.InvalidRulesError as error:
            raise forms.ValidationError(f"Those options do not go together: {error}.") from None
        return data

    def remembered(self) -> dict[str, Any]:
        """The choices to offer again next time (the deal number is not remembered)."""
        keys = ("rule_set", "redeals", "mercis", "free_merci", "kings")
        return {key: self.cleaned_data[key] for key in keys}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")

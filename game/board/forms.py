"""The board's two forms: what a change request carries, read and checked by a Django form so
that the actions (game/board/actions.py) are given values and never a request, and the new-game
chooser (`NewGameForm`: a rule set and the options that may change it), which the site's page
and the daily page both carry.

A board's forms post `n` (the move count of the board the request was made on), and as they
apply `move` (a move's text, game.engine.notation) and `auto` (the browser's auto-move setting,
"1" or "0"; board.js adds it). board.js also sends `v`, the key of the board it holds
(game.board.kept.board_key), so the answer may leave out what the browser has already.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.http import QueryDict
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from game import engine
from game.board.words import APP_GAME, LAYOUT_TITLES, NO_MERCI, NO_SUCH_STAGE


@dataclass(frozen=True, slots=True)
class Posted:
    """A change request's values: the board's move count, the move's text (parsed by
    `move()`), the auto-move setting when the form said it, the held board's key."""

    seen: int
    move_text: str
    auto: bool | None
    previous: str

    def move(self) -> engine.Move:
        """The posted move (InvalidMoveError quotes text that is not one)."""
        return engine.Move.parse(self.move_text)


class ChangeForm(forms.Form):
    # A move count has a handful of digits (see limits.MAX_GAME_MOVES): the text is checked
    # before it is read, as int() of thousands of digits is slow and past 4,300 raises.
    n = forms.CharField(validators=[RegexValidator(r"^[0-9]{1,9}\Z")])
    # Checked by the engine when the action reads it (InvalidMoveError quotes it, cut short).
    move = forms.CharField(required=False, strip=False)
    auto = forms.CharField(required=False)
    v = forms.CharField(required=False)


# `auto` is "1" or "0"; anything else is taken as unsaid.
AUTO = {"0": False, "1": True}
# The longest key a board has: eight hex digits, a dot, a move's text, a dot, eight more.
MAX_KEY = 40
# A board's key (kept.board_key, and kept.marked_key's with a hint's or Show a win's
# move marked); anything else is none. Only compared, never parsed further here.
KEY = re.compile(r"[0-9a-f]{8}(\.[0-9A-Za-z>*@+-]{1,20}(\.[0-9a-f]{8})?)?")


def read(data: QueryDict) -> Posted:
    """The request's values; InvalidMoveError when it did not say which board it was made on.
    A key that is not one is taken as none (the whole board is sent)."""
    form = ChangeForm(data)
    if not form.is_valid():
        raise engine.InvalidMoveError("the request did not say which board it was made on")
    values = form.cleaned_data
    return Posted(
        seen=int(values["n"]),
        move_text=values["move"],
        auto=AUTO.get(values["auto"]),
        previous=_key(values["v"]),
    )


# ---------------------------------------------------------------- a press of Hint

# A hint's stages: the card to play (1), then where it goes as well (2).
HINT_CARD = 1
HINT_PLACE = 2
# The stage a board shows, as its Hint form posts it (`shown`): none yet, the card, or both.
SHOWN_CHOICES = [(str(stage), str(stage)) for stage in (0, HINT_CARD, HINT_PLACE)]
STAGE_CHOICES = SHOWN_CHOICES[1:]


@dataclass(frozen=True, slots=True)
class HintPress:
    """A press of Hint: the move count of the board it was made on (a board of another count
    is stale) and the stage of the hint that board already showed (0 none, 1 the card, 2 the
    card and where it goes): the press shows the next."""

    seen: int
    shown: int


class HintPressForm(forms.Form):
    n = forms.CharField(validators=[RegexValidator(r"^[0-9]{1,9}\Z")])
    # Missing: a board showing no hint yet.
    shown = forms.ChoiceField(choices=SHOWN_CHOICES, required=False)


class HintStageForm(forms.Form):
    # Missing: the whole hint (the hint's page as it always was).
    stage = forms.ChoiceField(choices=STAGE_CHOICES, required=False)


def read_hint_press(data: QueryDict) -> HintPress:
    """A Hint press's values (a POST); InvalidMoveError when it did not say which board it was
    made on, or named a stage no hint has."""
    form = HintPressForm(data)
    if not form.is_valid():
        if "shown" in form.errors:
            raise engine.InvalidMoveError(NO_SUCH_STAGE)
        raise engine.InvalidMoveError("the request did not say which board it was made on")
    values = form.cleaned_data
    return HintPress(seen=int(values["n"]), shown=int(values["shown"] or 0))


def hint_stage(data: QueryDict) -> int:
    """The stage a GET of the hint asks to see (`stage`: 1 the card, 2 where it goes too; the
    whole hint when unsaid); InvalidMoveError for any other."""
    form = HintStageForm(data)
    if not form.is_valid():
        raise engine.InvalidMoveError(NO_SUCH_STAGE)
    return int(form.cleaned_data["stage"] or HINT_PLACE)


def held_key(data: QueryDict) -> str:
    """The key of the board the browser holds, from a hint's request (its `v`); "" when none."""
    return _key(data.get("v", ""))


def _key(text: str) -> str:
    return text if len(text) <= MAX_KEY and KEY.fullmatch(text) else ""


# ---------------------------------------------------------------- the new-game chooser

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

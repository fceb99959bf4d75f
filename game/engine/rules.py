"""Rule sets: which layout, how many redeals and mercis, and the optional rules.

A rule set has one canonical short name, used in URLs and game records, for example
`lucie` (the default), `nomerci`, `trefoil`, `sixteen`, or a base followed by the options that
differ from the default: `lucie-r3-m2-free-kings`, `trefoil-ru`, `lucie-free-once` (the La
Belle Lucie app's game), `lucie-stuck`.

Two options come from the rule books. `once`: a card moved from one fan to another may afterwards
go only to its foundation, until the next redeal (building in suit already makes that so; it
matters for the free merci's card). `stuck`: the merci may be taken only when no other move is
left.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

MAX_REDEALS = 3
MAX_MERCIS = 2


class InvalidRulesError(ValueError):
    """A rule-set name or combination of options that does not exist."""


class Layout(Enum):
    """How the first deal is laid out."""

    STANDARD = "lucie"  # 17 fans of three and one single card
    TREFOIL = "trefoil"  # Aces start on the foundations; 16 fans of three
    SIXTEEN = "sixteen"  # 16 fans of three and two fans of two


LAYOUT_TITLES = {
    Layout.STANDARD: "La Belle Lucie",
    Layout.TREFOIL: "Trefoil",
    Layout.SIXTEEN: "Sixteen fans",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set. `redeals=None` means unlimited redeals, which allows no merci."""

    layout: Layout = Layout.STANDARD
    redeals: int | None = 2
    mercis: int = 1
    free_merci: bool = False
    kings_fill_empty: bool = False
    once: bool = False  # a card moved onto another fan may then only go home, until a redeal
    stuck: bool = False  # the merci only when no other move is left

    def __post_init__(self) -> None:
        if self.redeals is not None and not 0 <= self.redeals <= MAX_REDEALS:
            raise InvalidRulesError(f"redeals must be 0 to {MAX_REDEALS}, or unlimited")
        if not 0 <= self.mercis <= MAX_MERCIS:
            raise InvalidRulesError(f"mercis must be 0 to {MAX_MERCIS}")
        if self.redeals is None and self.mercis:
            raise InvalidRulesError("unlimited redeals allow no merci")
        if self.free_merci and not self.mercis:
            raise InvalidRulesError("a free merci needs at least one merci")
        if self.stuck and not self.mercis:
            raise InvalidRulesError("a merci only when stuck needs at least one merci")

    @classmethod
    def parse(cls, name: str) -> Rules:
        """Read a rule-set name such as `lucie`, `nomerci` or `trefoil-r1-kings`.

        >>> Rules.parse("lucie-free-once") == Rules(free_merci=True, once=True)
        True
        >>> Rules.parse("lucie-kings-once-free").name
        'lucie-free-once-kings'
        >>> Rules.parse("lucie-stuck").stuck
        True
        >>> Rules.parse("nomerci-stuck")
        Traceback (most recent call last):
        ...
        game.engine.rules.InvalidRulesError: a merci only when stuck needs at least one merci
        """
        if not isinstance(name, str) or not name.strip():
            raise InvalidRulesError("a rule set needs a name, like lucie")
        base, *options = name.strip().lower().split("-")
        layout, redeals, mercis = _base(base)
        free = kings = once = stuck = False
        seen: set[str] = set()
        for option in options:
            kind = option[:1] if option[:1] in ("r", "m") else option
            if kind in seen:
                raise InvalidRulesError(f"option {option!r} repeats another in rule set {name!r}")
            seen.add(kind)
            if option == "free":
                free = True
            elif option == "kings":
                kings = True
            elif option == "once":
                once = True
            elif option == "stuck":
                stuck = True
            elif option == "ru":
                redeals = None
            elif len(option) == 2 and option[0] == "r" and option[1] in "0123456789":
                redeals = int(option[1])
            elif len(option) == 2 and option[0] == "m" and option[1] in "0123456789":
                mercis = int(option[1])
            else:
                raise InvalidRulesError(f"unknown option {option!r} in rule set {name!r}")
        if redeals is None and "m" not in seen:
            mercis = 0  # unlimited redeals allow no merci, so "ru" implies "m0"
        return cls(layout, redeals, mercis, free, kings, once, stuck)

    @property
    def name(self) -> str:
        """The canonical name; `Rules.parse(rules.name) == rules`."""
        no_merci_base = (
            self.layout is Layout.STANDARD and self.mercis == 0 and self.redeals is not None
        )
        parts = ["nomerci" if no_merci_base else self.layout.value]
        if self.redeals is None:
            parts.append("ru")
        elif self.redeals != 2:
            parts.append(f"r{self.redeals}")
        if self.redeals is not None and self.mercis != 1 and not no_merci_base:
            parts.append(f"m{self.mercis}")
        if self.free_merci:
            parts.append("free")
        if self.once:
            parts.append("once")
        if self.stuck:
            parts.append("stuck")
        if self.kings_fill_empty:
            parts.append("kings")
        return "-".join(parts)

    @property
    def label(self) -> str:
        """The rule set's name for players, the one shown everywhere: "La Belle Lucie",
        "La Belle Lucie, no merci", "Trefoil", or with what differs from its base in brackets:
        "Sixteen fans (3 redeals, Kings fill empty fans)"."""
        no_merci_base = (
            self.layout is Layout.STANDARD and self.mercis == 0 and self.redeals is not None
        )
        title = LAYOUT_TITLES[self.layout] + (", no merci" if no_merci_base else "")
        changes = []
        if self.redeals is None:
            changes.append("unlimited redeals, no merci")
        else:
            if self.redeals != 2:
                changes.append("no redeal" if self.redeals == 0 else _count(self.redeals, "redeal"))
            if self.mercis != (0 if no_merci_base else 1):
                changes.append("no merci" if self.mercis == 0 else _count(self.mercis, "merci"))
        if self.free_merci:
            changes.append("free merci")
        if self.once:
            changes.append("a moved card only goes home")
        if self.stuck:
            changes.append("merci only when stuck")
        if self.kings_fill_empty:
            changes.append("Kings fill empty fans")
        return f"{title} ({', '.join(changes)})" if changes else title

    def describe(self) -> str:
        """A line a player can read: "La Belle Lucie: 2 redeals, 1 merci"."""
        title = LAYOUT_TITLES[self.layout]
        if self.layout is Layout.STANDARD and self.mercis == 0 and self.redeals is not None:
            title += ", no merci"
        redeals = "unlimited redeals" if self.redeals is None else _count(self.redeals, "redeal")
        details = [redeals, _count(self.mercis, "merci")]
        if self.free_merci:
            details.append("free merci")
        if self.once:
            details.append("a card moved onto another fan may then only go home")
        if self.stuck:
            details.append("the merci only when no other move is left")
        if self.kings_fill_empty:
            details.append("Kings may fill an empty fan")
        return f"{title}: {', '.join(details)}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Rules.parse({self.name!r})"


DEFAULT_RULES = Rules()
APP_RULES = Rules(free_merci=True, once=True)
"""The La Belle Lucie app's game: the drawn card may go on any fan, and from there only home."""

PRESETS: dict[str, Rules] = {
    "lucie": DEFAULT_RULES,
    "nomerci": Rules(mercis=0),
    "trefoil": Rules(layout=Layout.TREFOIL),
    "sixteen": Rules(layout=Layout.SIXTEEN),
    APP_RULES.name: APP_RULES,
}
"""The rule sets offered in one choice, by name."""


def every_rule_set() -> tuple[Rules, ...]:
    """Every valid rule set: each layout with each redeal count, merci count and option that
    make sense together.

    >>> len(every_rule_set())
    444
    """
    found = []
    flags = (False, True)
    for layout, redeals, mercis, free, kings, once, stuck in itertools.product(
        Layout, (*range(MAX_REDEALS + 1), None), range(MAX_MERCIS + 1), flags, flags, flags, flags
    ):
        try:
            found.append(Rules(layout, redeals, mercis, free, kings, once, stuck))
        except InvalidRulesError:
            continue
    return tuple(found)


def _base(base: str) -> tuple[Layout, int | None, int]:
    if base == "nomerci":
        return Layout.STANDARD, 2, 0
    for layout in Layout:
        if layout.value == base:
            return layout, 2, 1
    raise InvalidRulesError(f"unknown rule set {base!r}: try lucie, nomerci, trefoil or sixteen")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")

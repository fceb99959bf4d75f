"""Rule sets as values: names that round-trip, combinations that are refused, readable lines."""

from __future__ import annotations

import pytest

from game.engine import (
    APP_RULES,
    DEFAULT_RULES,
    PRESETS,
    InvalidRulesError,
    Layout,
    Rules,
    every_rule_set,
)

ALL_RULES = every_rule_set()


def test_every_valid_combination_is_counted() -> None:
    # per layout: 4 limited redeal counts x (m0 + 2 merci counts x free x stuck) x kings x once
    # = 4*9*4 = 144, and unlimited redeals (no merci, so no free merci, no stuck) x kings x once = 4
    assert len(ALL_RULES) == 3 * (144 + 4)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name)
def test_every_rule_set_name_round_trips(rules: Rules) -> None:
    assert Rules.parse(rules.name) == rules
    assert Rules.parse(rules.name.upper()) == rules
    assert str(rules) == rules.name
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_names_are_unique() -> None:
    names = [rules.name for rules in ALL_RULES]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("lucie", Rules()),
        ("nomerci", Rules(mercis=0)),
        ("trefoil", Rules(layout=Layout.TREFOIL)),
        ("sixteen", Rules(layout=Layout.SIXTEEN)),
        ("nomerci-r1", Rules(redeals=1, mercis=0)),
        ("trefoil-ru", Rules(layout=Layout.TREFOIL, redeals=None, mercis=0)),
        ("lucie-ru", Rules(redeals=None, mercis=0)),
        ("lucie-r0", Rules(redeals=0)),
        (
            "lucie-r3-m2-free-kings",
            Rules(redeals=3, mercis=2, free_merci=True, kings_fill_empty=True),
        ),
        ("sixteen-m0-kings", Rules(layout=Layout.SIXTEEN, mercis=0, kings_fill_empty=True)),
        ("lucie-free-once", Rules(free_merci=True, once=True)),
        ("lucie-stuck", Rules(stuck=True)),
        ("lucie-free-once-kings", Rules(free_merci=True, once=True, kings_fill_empty=True)),
        ("nomerci-once", Rules(mercis=0, once=True)),
        ("trefoil-m2-free-once-stuck", Rules(Layout.TREFOIL, 2, 2, True, False, True, True)),
    ],
)
def test_canonical_names(name: str, rules: Rules) -> None:
    assert rules.name == name
    assert Rules.parse(name) == rules


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("lucie-m0", "nomerci"),
        ("LUCIE", "lucie"),
        (" lucie-r2-m1 ", "lucie"),
        ("Trefoil-RU", "trefoil-ru"),
        ("lucie-once-free", "lucie-free-once"),
        ("lucie-kings-stuck-once", "lucie-once-stuck-kings"),
    ],
)
def test_other_spellings_read_as_the_canonical_name(alias: str, canonical: str) -> None:
    assert Rules.parse(alias).name == canonical


def test_presets_are_the_four_published_rule_sets_and_the_apps_game() -> None:
    names = ("lucie", "nomerci", "trefoil", "sixteen", "lucie-free-once")
    assert {name: Rules.parse(name) for name in names} == PRESETS
    assert PRESETS["lucie-free-once"] == APP_RULES
    assert APP_RULES.free_merci
    assert APP_RULES.once
    assert not APP_RULES.stuck
    assert PRESETS["lucie"] == DEFAULT_RULES == Rules()
    assert (DEFAULT_RULES.redeals, DEFAULT_RULES.mercis) == (2, 1)
    assert not DEFAULT_RULES.free_merci
    assert not DEFAULT_RULES.kings_fill_empty


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bogus", "unknown rule set"),
        ("", "needs a name"),
        ("   ", "needs a name"),
        ("lucie-r9", "redeals must be 0 to 3"),
        ("lucie-r4", "redeals must be 0 to 3"),
        ("lucie-m3", "mercis must be 0 to 2"),
        ("lucie-ru-m1", "unlimited redeals allow no merci"),
        ("lucie-ru-m2", "unlimited redeals allow no merci"),
        ("lucie-m0-free", "free merci needs"),
        ("nomerci-free", "free merci needs"),
        ("nomerci-stuck", "only when stuck needs"),
        ("lucie-ru-stuck", "only when stuck needs"),
        ("lucie-once-once", "repeats"),
        ("lucie-x", "unknown option"),
        ("lucie-", "unknown option"),
        ("lucie-r", "unknown option"),
        ("lucie-r10", "unknown option"),
        ("lucie--kings", "unknown option"),
        ("kings", "unknown rule set"),
    ],
)
def test_a_bad_name_is_refused_with_a_reason(name: str, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules.parse(name)


@pytest.mark.parametrize("name", [None, 3, ["lucie"]])
def test_a_name_that_is_not_text_is_refused(name: object) -> None:
    with pytest.raises(InvalidRulesError):
        Rules.parse(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["lucie-r²", "lucie-m²", "lucie-r٣"])
def test_a_non_ascii_digit_is_an_unknown_option(name: str) -> None:
    with pytest.raises(InvalidRulesError, match="unknown option"):
        Rules.parse(name)


def test_a_merci_count_with_unlimited_redeals_is_refused_in_either_order() -> None:
    with pytest.raises(InvalidRulesError, match="unlimited redeals allow no merci"):
        Rules.parse("lucie-m2-ru")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"redeals": 4}, "redeals must be"),
        ({"redeals": -1}, "redeals must be"),
        ({"mercis": 3}, "mercis must be"),
        ({"mercis": -1}, "mercis must be"),
        ({"redeals": None}, "unlimited redeals allow no merci"),
        ({"mercis": 0, "free_merci": True}, "free merci needs"),
        ({"mercis": 0, "stuck": True}, "only when stuck needs"),
    ],
)
def test_an_impossible_combination_cannot_be_built(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("lucie", "La Belle Lucie: 2 redeals, 1 merci"),
        ("nomerci", "La Belle Lucie, no merci: 2 redeals, 0 mercis"),
        ("trefoil-ru", "Trefoil: unlimited redeals, 0 mercis"),
        (
            "sixteen-r1-m2-free-kings",
            "Sixteen fans: 1 redeal, 2 mercis, free merci, Kings may fill an empty fan",
        ),
    ],
)
def test_describe_reads_like_a_sentence(name: str, line: str) -> None:
    assert Rules.parse(name).describe() == line


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(InvalidRulesError, ValueError)


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("lucie", "La Belle Lucie"),
        ("nomerci", "La Belle Lucie, no merci"),
        ("trefoil", "Trefoil"),
        ("sixteen", "Sixteen fans"),
        ("lucie-ru", "La Belle Lucie (unlimited redeals, no merci)"),
        ("nomerci-r0", "La Belle Lucie, no merci (no redeal)"),
        ("trefoil-m0", "Trefoil (no merci)"),
        (
            "sixteen-r3-m2-free-kings",
            "Sixteen fans (3 redeals, 2 mercis, free merci, Kings fill empty fans)",
        ),
    ],
)
def test_rule_sets_have_a_name_for_players(name: str, label: str) -> None:
    assert Rules.parse(name).label == label


def test_every_rule_set_has_a_label_of_its_own() -> None:
    labels = [rules.label for rules in ALL_RULES]
    assert len(set(labels)) == len(labels)

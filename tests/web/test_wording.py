"""What the pages say: rule sets by their names, counts in the singular, clear errors, the hint's
reason only on asking, the month page once today's deal is done."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
import time_machine
from django.test import Client
from pytest_django.fixtures import Settings

from game import engine
from game.models import Game
from tests.helpers.daily import NOON, cell, finished_daily, open_daily, site_at
from tests.helpers.play import post, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(settings: Settings) -> Iterator[time_machine.Traveller]:
    with site_at(settings, NOON) as traveller:
        yield traveller


def finish(client: Client, rules: str) -> Game:
    """A lost game under `rules`, so it has a replay."""
    game = start(client, 5, rules)
    response = post(
        client, game, "move", move=next(iter(engine.card_moves(game.replay().position))).text
    )
    assert response.status_code in (200, 302, 303)
    game.refresh_from_db()
    game.status = Game.Status.LOST
    game.finished_at = game.started_at
    game.save()
    return game


def test_statistics_replays_and_records_name_the_rule_set(client: Client) -> None:
    game = finish(client, "nomerci")

    stats = client.get("/stats/?rules=nomerci").content.decode()
    replay = client.get(f"/replay/{game.replay_token}/").content.decode()
    record = client.get(f"/game/{game.pk}/record/").content.decode()

    assert "Under the rule set <b>La Belle Lucie, no merci</b>" in stats
    assert '>La Belle Lucie, no merci <span class="tab-count">1</span>' in stats
    assert "rule set <b>La Belle Lucie, no merci</b>" in replay
    assert "under <b>La Belle Lucie, no merci</b>" in record
    for page in (stats, replay, record):
        assert "<b>nomerci</b>" not in page


def test_a_rule_set_with_options_is_named_with_them(client: Client) -> None:
    game = finish(client, "trefoil-r3-kings")

    stats = client.get("/stats/?rules=all").content.decode()
    replay = client.get(f"/replay/{game.replay_token}/").content.decode()

    assert "Trefoil (3 redeals, Kings fill empty fans)" in stats
    assert "rule set <b>Trefoil (3 redeals, Kings fill empty fans)</b>" in replay


def test_one_move_is_one_move(client: Client) -> None:
    start(client, 5)
    game = Game.objects.get()
    post(client, game, "move", move=next(iter(engine.card_moves(game.replay().position))).text)

    page = client.get("/new/").content.decode()

    assert "1 move)" in page
    assert "1 moves" not in page


@pytest.mark.parametrize("typed", ["0", "99999999999999999999", "12a"])
def test_a_bad_deal_number_is_explained_without_a_19_digit_limit(
    client: Client, typed: str
) -> None:
    response = client.get("/deal/", {"number": typed})

    assert response.status_code == 400
    text = response.content.decode()
    assert "9223372036854775807" not in text
    assert "deal number" in text.lower()


def test_the_hint_names_its_move_and_keeps_its_reason_for_why(client: Client) -> None:
    game = start(client, 5)

    html = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"}).content.decode()

    message = html.split('<p class="message">')[1].split("</p>")[0]
    assert message.startswith("Hint: ")
    assert "(" not in message  # no reason in brackets
    assert '<details class="why"><summary>Why?</summary>' in html


def test_a_board_without_a_hint_has_no_why(client: Client) -> None:
    game = start(client, 5)

    html = client.get(f"/game/{game.pk}/").content.decode()

    assert 'class="why"' not in html


def test_the_month_stops_inviting_to_play_once_todays_deal_is_done(
    client: Client, clock: time_machine.Traveller
) -> None:
    open_daily(client)
    before = client.get("/daily/2026/11/").content.decode()
    finished_daily(client, 20261129, Game.Status.LOST, dt.datetime(2026, 11, 29, 8, tzinfo=dt.UTC))
    Game.objects.filter(deal_number=20261129, status=Game.Status.PLAYING).delete()

    after = client.get("/daily/2026/11/").content.decode()

    assert "Play today's deal" in before
    assert "Play today's deal" not in after
    assert "See today's game" in after


def test_a_day_won_with_help_is_not_marked_as_a_win(
    client: Client, clock: time_machine.Traveller
) -> None:
    finished_daily(
        client,
        20261127,
        Game.Status.WON,
        dt.datetime(2026, 11, 27, 8, tzinfo=dt.UTC),
        assisted=True,
    )
    open_daily(client)

    html = client.get("/daily/2026/11/").content.decode()

    day = cell(html, "2026-11-27")
    assert "state-assisted" in day
    assert "state-won" not in day


def test_rule_set_labels_come_from_the_engine() -> None:
    from game.board import forms
    from game.stats import tabs as stats_tabs

    assert dict(forms.RULE_SET_CHOICES)["nomerci"].startswith(engine.PRESETS["nomerci"].label)
    tabs = stats_tabs.rule_set_tabs(None, "lucie")
    presets = engine.PRESETS.values()
    assert [tab.label for tab in tabs][: len(presets)] == [rules.label for rules in presets]

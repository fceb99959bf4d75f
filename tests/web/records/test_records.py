"""Game records (export, import, every kind of bad record) and replays (who may see them)."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.play import a_card_move, greedy_game, greedy_record, post, start

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db


def played_game(client: Client, moves: int = 3) -> Game:
    game = start(client)
    for _ in range(moves):
        game.refresh_from_db()
        post(client, game, "move", move=a_card_move(game).text)
    game.refresh_from_db()
    return game


def import_record(client: Client, text: str, then: str = "replay") -> _MonkeyPatchedWSGIResponse:
    return client.post("/import/", {"record": text, "then": then})


# ---------------------------------------------------------------- export


def test_a_game_downloads_as_its_text_record(client: Client) -> None:
    game = played_game(client)

    response = client.get(f"/game/{game.pk}/record.txt")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="lucie-lucie-{game.deal_number}.txt"'
    )
    assert response.content.decode().strip() == game.record.text
    assert engine.Record.parse(response.content.decode()) == game.record


def test_the_record_page_offers_it_to_copy_and_download(client: Client) -> None:
    game = played_game(client)

    page = client.get(f"/game/{game.pk}/record/").content.decode()

    assert f">{escape(game.record.text)}</textarea>" in page
    assert "readonly" in page
    assert f'href="/game/{game.pk}/record.txt" download' in page
    assert "data-copy" in page
    assert "/replay/" not in page  # under way: no replay yet


def test_another_browsers_record_is_a_404(client: Client) -> None:
    game = played_game(client)
    stranger = Client()

    assert stranger.get(f"/game/{game.pk}/record.txt").status_code == 404
    assert stranger.get(f"/game/{game.pk}/record/").status_code == 404


# ---------------------------------------------------------------- import: round trips


def test_an_exported_record_imports_as_a_replay_of_the_same_moves(client: Client) -> None:
    game = greedy_game(client, "lost")
    text = client.get(f"/game/{game.pk}/record.txt").content.decode()

    response = import_record(Client(), text)

    assert response.status_code == 303
    imported = Game.objects.get(imported=True)
    assert response["Location"] == f"/replay/{imported.replay_token}/"
    assert imported.record == game.record
    assert (imported.status, imported.session_key, imported.started_at) == ("lost", "", None)
    assert (
        Client().get(f"/replay/{imported.replay_token}/record.txt").content.decode().strip()
        == text.strip()
    )


def test_an_upload_imports_like_a_paste(client: Client) -> None:
    game = played_game(client)
    upload = SimpleUploadedFile("game.txt", game.record.text.encode(), "text/plain")

    response = client.post("/import/", {"file": upload, "then": "replay"})

    assert response.status_code == 303
    assert Game.objects.get(imported=True).record == game.record


def test_playing_on_from_a_record_starts_that_deal_at_its_end(client: Client) -> None:
    game = played_game(client)
    text = game.record.text
    other = Client()
    other.get("/")

    response = import_record(other, text, then="play")

    assert response.status_code == 303
    new = Game.objects.get(session_key=other.session.session_key, moves=game.moves)
    assert response["Location"] == f"/game/{new.pk}/"
    assert (new.deal_number, new.rules, new.move_count) == (game.deal_number, "lucie", 3)
    assert new.assisted  # its opening was not played here: played, never won
    assert new.status == Game.Status.PLAYING
    move = a_card_move(new)
    assert post(other, new, "move", move=move.text).status_code == 303


def test_an_imported_record_is_never_reachable_as_an_embed_game(client: Client) -> None:
    game = played_game(client)
    import_record(client, game.record.text)
    imported = Game.objects.get(imported=True)

    assert client.get(f"/embed/g/{imported.token}/").status_code == 404
    assert client.post(f"/embed/g/{imported.token}/undo/", {"n": 3}).status_code == 404


# ---------------------------------------------------------------- import: bad records


def _long_record() -> str:
    return "lucie 5 " + " ".join(["AS>F"] * 5001)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "There is no record"),
        ("   \n  ", "There is no record"),
        ("lucie", "A record starts with a rule set and a deal number"),
        ("bogus 5 AS>F", "Rule set:"),
        ("lucie-r9 5", "Rule set:"),
        ("lucie twelve", "Deal number:"),
        ("lucie 0", "Deal number:"),
        ("lucie 5 AS>F XX>F", "Move 2:"),
        ("lucie 5 KS>QS", "Move 1 (KS&gt;QS):"),
        (_long_record(), "at most 1000 moves"),
        ("lucie 5 \x00 AS>F", "control characters"),
    ],
)
def test_a_bad_record_is_refused_saying_where_it_goes_wrong(
    client: Client, text: str, message: str
) -> None:
    response = import_record(client, text)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_an_illegal_move_is_named_by_its_number(client: Client) -> None:
    number, moves = greedy_record("lost")
    bad = [*moves[:11], "KS>QS", *moves[12:]]

    response = import_record(client, f"lucie {number} " + " ".join(bad))

    assert response.status_code == 400
    assert re.search(r"Move 12 \(KS&gt;QS\): ", response.content.decode())


def test_a_binary_upload_is_refused(client: Client) -> None:
    upload = SimpleUploadedFile("game.txt", bytes(range(256)) * 4, "application/octet-stream")

    response = client.post("/import/", {"file": upload, "then": "replay"})

    assert response.status_code == 400
    assert "not a text record" in response.content.decode()


def test_an_upload_over_64_kb_is_refused(client: Client) -> None:
    upload = SimpleUploadedFile("game.txt", b"lucie 5 " + b"AS>F " * 14000, "text/plain")

    response = client.post("/import/", {"file": upload, "then": "replay"})

    assert response.status_code == 400
    assert "too large" in response.content.decode()


def test_a_pasted_record_over_64_kb_is_refused(client: Client) -> None:
    response = import_record(client, "lucie 5 " + "AS>F " * 14000)

    assert response.status_code == 400
    assert "too long" in response.content.decode()


def test_the_import_page_offers_both_ways(client: Client) -> None:
    page = client.get("/import/").content.decode()

    assert 'enctype="multipart/form-data"' in page
    assert 'name="then" value="replay"' in page
    assert 'name="then" value="play"' in page


# ---------------------------------------------------------------- replays


def test_a_finished_games_replay_opens_for_anyone_with_the_link(client: Client) -> None:
    game = greedy_game(client, "lost")
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert f'href="/replay/{game.replay_token}/"' in page  # linked from the lost screen

    stranger = Client()
    response = stranger.get(f"/replay/{game.replay_token}/")

    assert response.status_code == 200
    assert response["Referrer-Policy"] == "no-referrer"
    text = response.content.decode()
    assert f"Move <b>0</b> of {game.move_count}" in text
    assert game.token not in text  # the embed's move token never leaks
    assert f"/game/{game.pk}/" not in text
    assert "<form" not in text.split('id="replay"')[1].split("</div>\n\n")[0]


def test_the_replay_steps_through_the_positions(client: Client) -> None:
    game = greedy_game(client, "lost")
    played = engine.Play.from_record(game.record)
    moves = played.moves
    redeal_at = next(i + 1 for i, m in enumerate(moves) if m.is_redeal)

    step = client.get(f"/replay/{game.replay_token}/?at={redeal_at}").content.decode()

    assert f"Move <b>{redeal_at}</b> of {len(moves)}" in step
    assert f'href="?at={redeal_at - 1}#m{redeal_at - 1}" data-step-link="previous"' in step
    assert f'href="?at={redeal_at + 1}#m{redeal_at + 1}" data-step-link="next"' in step
    jump = f'href="?at={redeal_at}#m{redeal_at}" data-jump="{redeal_at}" aria-current="step"'
    assert jump in step
    assert shown_cards(step) == [c.code for fan in played.positions()[redeal_at].fans for c in fan]
    end = client.get(f"/replay/{game.replay_token}/?at={len(moves)}").content.decode()
    assert f"Move <b>{len(moves)}</b> of {len(moves)}" in end
    assert 'aria-disabled="true" data-step-link="next"' in end
    assert 'aria-disabled="true" data-step-link="end"' in end


def shown_cards(page: str) -> list[str]:
    """The cards of the felt on show (not those of the steps sent along for the script)."""
    felt = page.split('id="replay"')[1].split('id="move-list"')[0]
    return re.findall(r'data-card="(\w\w)"', felt.split('class="fans')[1])


def test_every_step_is_a_link_in_the_move_list(client: Client) -> None:
    game = greedy_game(client, "lost")
    moves = engine.Play.from_record(game.record).moves

    page = client.get(f"/replay/{game.replay_token}/?at=5").content.decode()

    listed = re.findall(r'<li id="m(\d+)" data-step="\1"', page)
    assert listed == [str(at) for at in range(len(moves) + 1)]
    for at in (0, 1, len(moves)):
        assert f'<a href="?at={at}#m{at}"' in page
    assert '<a href="?at=5#m5" aria-current="step">' in page
    assert page.count('aria-current="step"') == 1
    # Each step's changed fans and foundations come with the page, for stepping with no request.
    assert page.count('<template data-step="0" data-part="') == 5  # the fans and four foundations
    assert '<template data-step="1" data-part="' in page


def test_the_old_step_links_still_open_their_step(client: Client) -> None:
    game = greedy_game(client, "lost")
    moves = engine.Play.from_record(game.record).moves

    assert "Move <b>3</b> of" in client.get(f"/replay/{game.replay_token}/?step=3").content.decode()
    end = client.get(f"/replay/{game.replay_token}/?step=99999").content.decode()
    assert f"Move <b>{len(moves)}</b> of {len(moves)}" in end
    assert "Move <b>0</b>" in client.get(f"/replay/{game.replay_token}/?step=-3").content.decode()


@pytest.mark.parametrize(
    ("query", "says", "shown"),
    [
        ("?at=abc", "“abc” is not a move number: here is the start of the game.", "0"),
        ("?at=-3", "“-3” is not a move number: here is the start of the game.", "0"),
        ("?at=%C2%B2", "“²” is not a move number: here is the start of the game.", "0"),
        ("?at=99999999999", "is not a move number", "0"),
        ("?at=99999", "This game has only {last} moves: here is its end.", "{last}"),
        ("?at=3&line=2", "There is no such step of the solver's line: here is move 3", "3"),
    ],
)
def test_a_step_that_is_not_there_is_a_400_that_says_so(
    client: Client, query: str, says: str, shown: str
) -> None:
    game = greedy_game(client, "lost")
    last = game.move_count

    response = client.get(f"/replay/{game.replay_token}/{query}")

    assert response.status_code == 400
    page = response.content.decode()
    assert escape(says.format(last=last)) in page
    assert f'id="replay" class="board replay-board" data-step="{shown.format(last=last)}"' in page


def test_an_htmx_step_gets_the_replay_region_only(client: Client) -> None:
    game = greedy_game(client, "lost")

    response = client.get(f"/replay/{game.replay_token}/?step=1", headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b'id="replay"' in response.content


def test_a_wrong_token_is_a_404(client: Client) -> None:
    greedy_game(client, "lost")

    assert client.get("/replay/" + "A" * 32 + "/").status_code == 404
    assert client.get("/replay/not-a-token/").status_code == 404
    assert client.get("/replay/%00/").status_code == 404


def test_a_game_in_progress_has_no_replay(client: Client) -> None:
    game = played_game(client)

    assert client.get(f"/replay/{game.replay_token}/").status_code == 404
    assert client.get(f"/replay/{game.replay_token}/record.txt").status_code == 404


def test_an_abandoned_game_has_a_replay(client: Client) -> None:
    game = played_game(client)
    client.post("/new/", {"rule_set": "lucie"})
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED

    assert Client().get(f"/replay/{game.replay_token}/").status_code == 200


def test_replay_tokens_are_not_game_tokens(client: Client) -> None:
    game = played_game(client)

    assert game.replay_token != game.token
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", game.replay_token)


# ---------------------------------------------------------------- the review's steps in the list


def test_the_owners_replay_lists_the_move_that_lost_the_win_and_the_solvers_line(
    client: Client,
) -> None:
    from game.models import GameReview
    from tests.helpers.review import LOST_BEFORE_A_REDEAL, review_until_done
    from tests.helpers.review import lost_game as lost_through_site

    game = lost_through_site(client, LOST_BEFORE_A_REDEAL)
    review_until_done(client, game)
    slip = GameReview.objects.get(game=game).found["slip"]
    at, line = slip["low"], [engine.Move.parse(text) for text in slip["line"]]
    assert at >= 0
    assert line

    page = client.get(f"/replay/{game.replay_token}/").content.decode()

    assert f'<li id="m{at + 1}" data-step="{at + 1}"' in page
    slipped = page.split(f'<li id="m{at + 1}"')[1].split("</li>")[0]
    assert 'class="is-slip"' in slipped
    assert "the move that lost the win" in slipped
    assert f'data-jump="{at + 1}">The move that lost the win' in page
    keys = re.findall(rf'<li id="m({at}-\d+)"', page)
    assert keys == [f"{at}-{n}" for n in range(1, len(line) + 1)]

    # The line's last step, server-drawn: the solver's moves played from the position after `at`.
    end = client.get(f"/replay/{game.replay_token}/?at={at}&line={len(line)}")
    assert end.status_code == 200
    html = end.content.decode()
    position = engine.Play.from_record(game.record).positions()[at]
    for move in line:
        position = engine.apply(position, move)
    assert shown_cards(html) == [card.code for fan in position.fans for card in fan]
    assert f"Solver's move <b>{len(line)}</b> of {len(line)}" in html
    assert f'data-step="{at}-{len(line)}"' in html

    # Whoever else has the link sees the game alone: the review is the owner's.
    stranger = Client().get(f"/replay/{game.replay_token}/").content.decode()
    assert "is-slip" not in stranger
    assert f'id="m{at}-1"' not in stranger

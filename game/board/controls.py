"""The board's controls and links: which controls are on offer and what a stuck board offers
instead of a move (`Controls`), the fair timer as the server reads it (`Timer`), and where each
control and link goes (`Places`). game/board/drawn.py puts them on the board it draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import timezone

from game import engine
from game.board import clock, kept
from game.board.fronts import LINKS, Front, Links, board_urls
from game.board.show_a_win import OnShow
from game.models import Game


@dataclass(frozen=True, slots=True)
class Controls:
    """The controls on offer, and what a stuck board offers instead of a move."""

    can_undo: bool
    can_redo: bool
    can_redeal: bool
    can_auto: bool
    can_show_a_win: bool
    redeals_left: int | str
    mercis_left: int
    merci_open: bool
    merci_waits: bool
    stuck_redeal: bool
    stuck_merci: bool


@dataclass(frozen=True, slots=True)
class Timer:
    """The fair timer as the server reads it (game/board/clock.py): the browser ticks from it."""

    elapsed_ms: int
    elapsed_text: str
    timer_running: bool
    timer_cap_ms: int


@dataclass(frozen=True, slots=True)
class Places:
    """Where the board's controls and links go (game/board/fronts.py)."""

    embed: bool
    urls: dict[str, str]
    links: Links
    deal_url: str
    replay_url: str = ""
    review_url: str = ""
    show_a_win_urls: dict[str, str] = field(default_factory=dict)


def on_offer(game: Game, played: engine.Play, legal: list[engine.Move], stuck: bool) -> Controls:
    position = played.position
    playing = game.status == Game.Status.PLAYING
    redeals_left = position.redeals_left
    return Controls(
        can_undo=played.can_undo and game.status in (Game.Status.PLAYING, Game.Status.LOST),
        can_redo=played.can_redo and playing,
        can_redeal=engine.REDEAL in legal,
        can_auto=any(m.to_foundation and not m.merci for m in legal),
        can_show_a_win=kept.can_show_a_win(game.status),
        redeals_left="unlimited" if redeals_left is None else redeals_left,
        mercis_left=position.mercis_left,
        merci_open=position.merci_open and playing,
        merci_waits=position.merci_waits and playing,
        stuck_redeal=stuck and engine.REDEAL in legal,
        stuck_merci=stuck and any(m.merci for m in legal),
    )


def timer(game: Game) -> Timer:
    """The timer ticks in the browser while the game is under way and the page is visible; the
    server's reading is where it starts from (game/board/clock.py)."""
    shown_ms = clock.reading(game, timezone.now())
    return Timer(
        elapsed_ms=shown_ms,
        elapsed_text=clock.format_ms(shown_ms),
        timer_running=game.status == Game.Status.PLAYING and game.started_at is not None,
        timer_cap_ms=clock.STRETCH_CAP_MS,
    )


def places(front: Front, game: Game, on_show: OnShow | None) -> Places:
    urls = board_urls(front, game)
    deal_url = reverse("deal", args=[game.deal_number])
    replay = review = ""
    if game.pk is not None and game.status != Game.Status.PLAYING:
        replay = reverse("replay", args=[game.replay_token])
        review = reverse("review", args=[game.pk])
    line: dict[str, str] = {}
    if game.pk is not None and on_show is not None and game.status != Game.Status.WON:
        show = urls["show_a_win"]
        line = {"undo": urls["undo"], "next": f"{show}next/", "out": f"{show}out/"}
        line["wait"] = f"{show}wait/"
    return Places(front.embed, urls, LINKS, deal_url, replay, review, show_a_win_urls=line)

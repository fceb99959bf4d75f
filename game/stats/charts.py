"""The statistics page's pictures, as geometry for server-rendered inline SVG.

The template draws these numbers; no style attributes (our CSP's style-src 'self' forbids them in
SVG too): colours come from classes in board.css, which follow the light and dark themes. Every
chart also carries its figures as text (a <title>, a <desc> and a visually hidden table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext, pgettext

from game.board.clock import format_ms
from game.stats.player_stats import Bin, Stats

WIDTH = 600
HEIGHT = 220
LEFT = 66
RIGHT = 8
TOP = 18
BOTTOM = 36


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    centre: float
    label: str  # under the bar ("" for none)
    value: str  # above the bar ("" for none)
    css: str
    spoken: str
    short: str = ""  # the label on a phone, where the chart is drawn small


@dataclass(frozen=True)
class Grid:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    bars: tuple[Bar, ...]
    grid: tuple[Grid, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    baseline: int = HEIGHT - BOTTOM

    @property
    def empty(self) -> bool:
        return not self.bars


def _bars(values: list[int], top_value: int) -> list[tuple[float, float, float, float, float]]:
    """(x, y, width, height, centre) for each value on a shared scale up to `top_value`."""
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    slot = plot_width / max(len(values), 1)
    width = min(slot * 0.72, 48)
    out = []
    for index, value in enumerate(values):
        height = plot_height * value / top_value if top_value else 0
        if value and height < 2:
            height = 2  # a game is never drawn as nothing
        x = LEFT + slot * index + (slot - width) / 2
        out.append(
            (
                round(x, 1),
                round(TOP + plot_height - height, 1),
                round(width, 1),
                round(height, 1),
                round(x + width / 2, 1),
            )
        )
    return out


def _grid(top_value: int, label: Callable[[int], str]) -> tuple[Grid, ...]:
    """Lines at nothing, half and the top of the scale."""
    plot_height = HEIGHT - TOP - BOTTOM
    marks = dict.fromkeys([0, top_value // 2, top_value])
    scale = top_value or 1  # every value nothing (wins in no time at all): a flat chart
    return tuple(
        Grid(round(TOP + plot_height - plot_height * mark / scale, 1), label(mark))
        for mark in marks
    )


def _spoken_bin(b: Bin) -> str:
    """A bar of the cards-home chart as a screen reader reads it."""
    if b.helped:
        return ngettext(
            "All 52 home with help (Show a win, or a record played on): %(count)s game, "
            "not counted as won",
            "All 52 home with help (Show a win, or a record played on): %(count)s games, "
            "not counted as won",
            b.count,
        ) % {"count": b.count}
    if b.won:
        text = ngettext(
            "%(label)s cards home: %(count)s game, each a win",
            "%(label)s cards home: %(count)s games, each a win",
            b.count,
        )
    else:
        text = ngettext(
            "%(label)s cards home: %(count)s game", "%(label)s cards home: %(count)s games", b.count
        )
    return text % {"label": b.label, "count": b.count}


def cards_home(stats: Stats) -> Chart:
    counts = [b.count for b in stats.bins]
    if not any(counts):
        return Chart((), ())
    top = max(counts)
    bars = tuple(
        Bar(
            x,
            y,
            w,
            h,
            c,
            b.label,
            str(b.count) if b.count else "",
            "bar won" if b.won else "bar helped" if b.helped else "bar",
            _spoken_bin(b),
            short=pgettext("the chart's bar of wins with help", "H") if b.helped else str(b.low),
        )
        for (x, y, w, h, c), b in zip(_bars(counts, top), stats.bins, strict=True)
    )
    return Chart(bars, _grid(top, str))


def win_times(stats: Stats) -> Chart:
    times = [w.elapsed_ms for w in stats.win_times]
    if not times:
        return Chart((), ())
    top = max(times)
    count = len(times)
    bars = tuple(
        Bar(
            x,
            y,
            w,
            h,
            c,
            str(win.number) if win.number in (1, count) or win.number % 5 == 0 else "",
            "",
            "bar best" if win.best else "bar",
            (
                gettext("Win %(number)s: deal #%(deal)s in %(time)s (best)")
                if win.best
                else gettext("Win %(number)s: deal #%(deal)s in %(time)s")
            )
            % {"number": win.number, "deal": win.deal_number, "time": win.time},
            short=str(win.number) if win.number in (1, count) or win.number % 10 == 0 else "",
        )
        for (x, y, w, h, c), win in zip(_bars(times, top), stats.win_times, strict=True)
    )
    return Chart(bars, _grid(top, format_ms))


def for_stats(stats: Stats) -> dict[str, Chart]:
    return {"cards_home": cards_home(stats), "win_times": win_times(stats)}

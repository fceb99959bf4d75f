"""Write static/cards.svg: the card faces' art, our own drawing, as one cached sprite.

Run `python scripts/card_art.py` after changing it; the file is committed. Each card has a symbol
`#c-<code>` (`#c-7H`, `#c-TC` for the Ten, `#c-KS`) drawn in a 100 x 140 box over the whole card:
the standard pip layout for 2 to 10, one large pip for an Ace, and for the courts a double-ended
half figure of our own (a King's crown, a Queen's tiara, a Jack's cap) in a framed panel. The
corner indices are HTML text on the card (game/board/table.py), so a buried card's strip
reads whatever the art. Suit-coloured parts use `currentColor`, so the four-colour setting
works; the gold and skin tones are fixed, since a card face is white in light and dark mode.

The pips keep clear of the corner indices: their columns (x = 36 and 64) sit between the
top-left index (x < 24) and the bottom-right one (x > 76).
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "cards.svg"

# Suit shapes in a 20 x 20 box, centred on (10, 10).
SUITS = {
    "H": "M10 18.6C8.6 17 1.2 11.8 1.2 6.6 1.2 3.6 3.4 1.4 6 1.4c1.8 0 3.2 1 4 2.5"
    ".8-1.5 2.2-2.5 4-2.5 2.6 0 4.8 2.2 4.8 5.2 0 5.2-7.4 10.4-8.8 12z",
    "D": "M10 .8 17.4 10 10 19.2 2.6 10z",
    "S": "M10 1C8.6 3.4 1.4 7.8 1.4 12.2c0 2.6 2 4.4 4.3 4.4 1.4 0 2.6-.6 3.3-1.6"
    "-.3 1.7-1.1 2.8-2.6 3.6h7.2c-1.5-.8-2.3-1.9-2.6-3.6.7 1 1.9 1.6 3.3 1.6"
    " 2.3 0 4.3-1.8 4.3-4.4C18.6 7.8 11.4 3.4 10 1z",
    "C": "M10 1.2a4.1 4.1 0 0 0-3.4 6.4A4.1 4.1 0 1 0 8.9 14c-.3 1.9-1 3.2-2.6 4.2"
    "h7.4c-1.6-1-2.3-2.3-2.6-4.2a4.1 4.1 0 1 0 2.3-6.4A4.1 4.1 0 0 0 10 1.2z",
}

L, C, R = 36, 50, 64
LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(C, 22), (C, 118)],
    "3": [(C, 22), (C, 70), (C, 118)],
    "4": [(L, 22), (R, 22), (L, 118), (R, 118)],
    "5": [(L, 22), (R, 22), (C, 70), (L, 118), (R, 118)],
    "6": [(L, 22), (R, 22), (L, 70), (R, 70), (L, 118), (R, 118)],
    "7": [(L, 22), (R, 22), (C, 46), (L, 70), (R, 70), (L, 118), (R, 118)],
    "8": [(L, 22), (R, 22), (C, 46), (L, 70), (R, 70), (C, 94), (L, 118), (R, 118)],
    "9": [(L, 22), (R, 22), (L, 54), (R, 54), (C, 70), (L, 86), (R, 86), (L, 118), (R, 118)],
    "T": [
        (L, 22), (R, 22), (C, 38), (L, 54), (R, 54),
        (L, 86), (R, 86), (C, 102), (L, 118), (R, 118),
    ],
}  # fmt: skip
PIP = 17  # a pip's width in the 100-wide box


def pip(suit: str, x: float, y: float, size: float = PIP) -> str:
    turned = f' transform="rotate(180 {x:g} {y:g})"' if y > 70 else ""
    half = size / 2
    return (
        f'<use href="#s-{suit}" x="{x - half:g}" y="{y - half:g}" '
        f'width="{size:g}" height="{size:g}"{turned}/>'
    )


# Half a court figure, drawn in the top half of the panel (y 10 to 70) and turned for the other.
HEADWEAR = {
    # A King's crown: three points, each with a ball.
    "K": '<path class="gold" d="M38 31 36 19 43 25 50 15 57 25 64 19 62 31z"/>'
    '<circle class="gold" cx="36" cy="18" r="2"/><circle class="gold" cx="50" cy="14" r="2"/>'
    '<circle class="gold" cx="64" cy="18" r="2"/>',
    # A Queen's tiara: a low arch of jewels.
    "Q": '<path class="gold" d="M39 31c0-6 5-10 11-10s11 4 11 10z"/>'
    '<circle class="jewel" cx="50" cy="21" r="2.4"/><circle class="gold" cx="42" cy="25" r="1.6"/>'
    '<circle class="gold" cx="58" cy="25" r="1.6"/>',
    # A Jack's cap with a feather.
    "J": '<path class="gold" d="M38 31c1-7 6-11 12-11 5 0 10 3 12 8l-3 3z"/>'
    '<path class="feather" d="M58 22c4-6 9-8 13-8-2 4-6 8-11 10z"/>',
}


def court(rank: str, suit: str) -> str:
    half = (
        # the robe, in the suit's colour, with a gold collar
        '<path d="M27 70V56c0-7 10-11 23-11s23 4 23 11v14z"/>'
        '<path class="gold" d="M40 46c3 4 6 6 10 6s7-2 10-6c-3-1-6-1.5-10-1.5S43 45 40 46z"/>'
        # the head
        '<ellipse class="skin" cx="50" cy="37" rx="8.5" ry="9.5"/>'
        + HEADWEAR[rank]
        + pip(suit, 34, 60, 11)
        + ("" if rank != "K" else '<path class="gold" d="M68 44v24h2.4V44z"/>')  # a sceptre
        + ("" if rank != "Q" else '<circle class="gold" cx="67" cy="48" r="3"/>')  # a flower
        + ("" if rank != "J" else '<path class="gold" d="M31 42l6 26h2.2l-5.6-26z"/>')  # a halberd
    )
    return (
        '<rect class="panel" x="28" y="12" width="44" height="116" rx="3"/>'
        f'<g transform="matrix(.86 0 0 1 7 0)">{half}</g>'
        f'<g transform="rotate(180 50 70) matrix(.86 0 0 1 7 0)">{half}</g>'
        '<path class="line" d="M28 70h44"/>'
        '<rect class="frame" x="28" y="12" width="44" height="116" rx="3"/>'
    )


def face(rank: str, suit: str) -> str:
    if rank == "A":
        return pip(suit, C, 70, 46)
    if rank in LAYOUTS:
        return "".join(pip(suit, x, y) for x, y in LAYOUTS[rank])
    return court(rank, suit)


def sprite() -> str:
    style = (
        # Fixed tones: a card face stays white in dark mode, so these need no dark variant.
        ".gold{fill:#d9a928;stroke:#6b4e0a;stroke-width:.8}"
        ".skin{fill:#f4d5b1;stroke:#7a5535;stroke-width:.6}"
        ".jewel{fill:#2f6fdb;stroke:#1b3570;stroke-width:.6}"
        ".feather{fill:#2e9b5a;stroke:#14502c;stroke-width:.6}"
        ".panel{fill:#fbf4e2}"
        ".frame{fill:none;stroke:currentColor;stroke-width:1.4}"
        ".line{stroke:currentColor;stroke-width:.8;opacity:.5}"
    )
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        f"<style>{style}</style>",
        "<defs>",
    ]
    for suit, path in SUITS.items():
        parts.append(f'<symbol id="s-{suit}" viewBox="0 0 20 20"><path d="{path}"/></symbol>')
    parts.append("</defs>")
    for suit in "CDHS":
        for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"):
            parts.append(
                f'<symbol id="c-{rank}{suit}" viewBox="0 0 100 140">{face(rank, suit)}</symbol>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    OUT.write_text(sprite())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")

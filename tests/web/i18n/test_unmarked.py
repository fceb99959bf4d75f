"""No template holds a word a player reads that is not marked for translation (issue 23).

Each template under templates/ (Django's) and game/jinja2/ (the board's, in Jinja2, whose comments,
tags and variables are written the same way) is stripped of everything that is not text for a
person: the comments, tags and variables, whatever `{% translate %}` and `{% blocktranslate %}`
hold, scripts, styles, SVG drawings, code (`<code>`, `<kbd>`, anything marked `translate="no"`) and
the HTML tags themselves. The values of the attributes a person reads or hears (alt, title, aria-
label, placeholder, a button input's value) are kept: they must be marked too. Whatever run of
letters is left is a string nobody can translate, and the test names its file and line.
Punctuation, numbers and symbols (⋯ ✓ ♣) are no words; nor are proper names such as "La Belle
Lucie".
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TEMPLATE_FOLDERS = (ROOT / "templates", ROOT / "game" / "jinja2")

# Names that are the same in every language, and the transfer code's sample (letters that are a
# code, not a word).
PROPER_NAMES = ("La Belle Lucie", "ABCDE-23456")

# Attributes whose values are read on screen or by a screen reader.
SPOKEN = r"alt|title|aria-label|aria-description|aria-roledescription|placeholder"


def _blank(match: re.Match[str]) -> str:
    """The match's place kept with its line breaks, so that line numbers stay right."""
    return " " + "\n" * match[0].count("\n")


DJANGO_COMMENT = re.compile(r"{%\s*comment\b.*?%}.*?{%\s*endcomment\s*%}|{#.*?#}", re.S)
BLOCK_TRANSLATE = re.compile(
    r"{%\s*blocktrans(?:late)?\b.*?%}.*?{%\s*endblocktrans(?:late)?\s*%}", re.S
)
DJANGO_TAG = re.compile(r"{%.*?%}|{{.*?}}", re.S)
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
NOT_TEXT = re.compile(
    r"<(script|style|svg|code|kbd|samp|pre)\b.*?</\1\s*>"
    r"|<(\w+)\b[^>]*\btranslate=\"no\"[^>]*>.*?</\2\s*>",
    re.S | re.I,
)
# A tag, reading quoted values whole (a value may hold a ">").
HTML_TAG = re.compile(r"<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.S)
SPOKEN_VALUE = re.compile(rf"\s(?:{SPOKEN})\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.I)
BUTTON_VALUE = re.compile(
    r"^<input\b(?=[^>]*\btype=[\"']?(?:submit|button|reset)\b)[^>]*\bvalue=\"([^\"]*)\"", re.I
)
WORD = re.compile(r"[^\W\d_]+")


def _spoken_only(match: re.Match[str]) -> str:
    """A tag becomes the values of its spoken attributes (marked ones are empty by now)."""
    tag = match[0]
    values = [double or single for double, single in SPOKEN_VALUE.findall(tag)]
    button = BUTTON_VALUE.match(tag)
    if button:
        values.append(button[1])
    return " " + " ".join(values) + " " + "\n" * tag.count("\n")


def unmarked(source: str) -> list[tuple[int, str]]:
    """The lines of a template that hold words not marked for translation, with those words.

    >>> unmarked('<p>{% translate "Hello" %}</p>\\n<p title="Hi">Bye, {{ name }}!</p>')
    [(2, 'Hi Bye')]
    """
    text = DJANGO_COMMENT.sub(_blank, source)
    text = BLOCK_TRANSLATE.sub(_blank, text)
    text = DJANGO_TAG.sub(_blank, text)
    text = HTML_COMMENT.sub(_blank, text)
    text = NOT_TEXT.sub(_blank, text)
    text = HTML_TAG.sub(_spoken_only, text)
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = unescape(line)
        for name in PROPER_NAMES:
            line = line.replace(name, " ")
        words = WORD.findall(line)
        if words:
            found.append((number, " ".join(words)))
    return found


def report(names: list[str]) -> list[str]:
    return [
        f"{name}:{number}: {words}"
        for name in names
        for number, words in unmarked((ROOT / name).read_text("utf-8"))
    ]


def every_template() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for folder in TEMPLATE_FOLDERS
        for pattern in ("*.html", "*.jinja")
        for path in folder.rglob(pattern)
    )


# ---------------------------------------------------------------- the stripper itself


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("<h1>Rules</h1>", [(1, "Rules")]),
        ('<h1>{% translate "Rules" %}</h1>', []),
        (
            "{% blocktranslate trimmed count n=n %}One fan{% plural %}{{ n }} fans"
            "{% endblocktranslate %}",
            [],
        ),
        ('<button aria-label="Close">✕</button>', [(1, "Close")]),
        ('<button aria-label="{% translate "Close" %}">✕</button>', []),
        ("<img alt='A fan' src=\"x.png\">", [(1, "A fan")]),
        ('<input type="search" placeholder="Deal number">', [(1, "Deal number")]),
        ('<input type="submit" value="Go">', [(1, "Go")]),
        ('<input type="hidden" name="next" value="back">', []),
        ("<p>\n{# a note #}\n{% comment %}\nold words\n{% endcomment %}\n</p>", []),
        ("<script>const words = 'not here';</script><style>p::after{content:'x'}</style>", []),
        ('<svg viewBox="0 0 9 9"><text>K</text></svg>', []),
        ("<p><code>?rules=trefoil</code> <kbd>Ctrl</kbd></p>", []),
        ('<textarea translate="no">&lt;iframe src="x"&gt;</textarea>', []),
        ("<!-- a comment -->12 · 3/4 ⋯ ✓ ♣ ♥ → &nbsp;&middot;", []),
        ("<title>La Belle Lucie</title>", []),
        ('<a href="/" hx-on:click="a > b">Home</a>', [(1, "Home")]),
        ("<p>\n\n  Stuck\n</p>", [(3, "Stuck")]),
        ("<p>Déjà vu</p>", [(1, "Déjà vu")]),
    ],
)
def test_the_stripper_keeps_only_words_nobody_marked(
    source: str, found: list[tuple[int, str]]
) -> None:
    assert unmarked(source) == found


def test_there_are_templates_to_check() -> None:
    assert len(every_template()) > 40


# ---------------------------------------------------------------- the templates


def test_every_template_is_marked() -> None:
    """Every template, file by file: visible text a template holds is marked for translation."""
    left = report(every_template())
    assert left == [], "\n".join(["words not marked for translation:", *left])

"""`manage.py makemessages`, which also reads the board's Jinja2 templates (`.jinja`:
game/jinja.py).

Django's command reads Python and Django templates only. For a `.jinja` file, this one hands
xgettext a Python file in which each of the template's gettext calls (`_`, `gettext`,
`ngettext`, `pgettext`, `npgettext`, as Jinja2's own extractor finds them) stands on the line
it has in the template, so the catalogues' `#:` references name the template and its lines, as
they do for Django's templates. Everything else is Django's command unchanged (docs/translating.md).
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.commands import makemessages
from django.template import engines

JINJA = ".jinja"


def python_of(source: str) -> str:
    """The template's gettext calls as Python, each on the template's own line."""
    environment = engines["jinja2"].env  # type: ignore[attr-defined]
    lines: dict[int, list[str]] = {}
    for lineno, function, message in environment.extract_translations(source):
        strings = message if isinstance(message, tuple) else (message,)
        arguments = [repr(text) for text in strings if text is not None]
        if function in ("ngettext", "npgettext"):
            arguments.append("n")
        name = "gettext" if function == "_" else function
        lines.setdefault(lineno, []).append(f"{name}({', '.join(arguments)})")
    last = max(source.count("\n") + 1, *lines) if lines else 1
    return "\n".join("; ".join(lines.get(n, [])) for n in range(1, last + 1)) + "\n"


class BuildFile(makemessages.BuildFile):
    def preprocess(self) -> None:
        if os.path.splitext(self.path)[1] != JINJA:
            super().preprocess()
            return
        with open(self.path, encoding="utf-8") as source:
            content = python_of(source.read())
        with open(self.work_path, "w", encoding="utf-8") as work:
            work.write(content)


class Command(makemessages.Command):
    build_file_class = BuildFile

    def handle(self, *args: Any, **options: Any) -> str | None:
        if options.get("domain", "django") == "django":
            options["extensions"] = [*(options.get("extensions") or ["html", "txt", "py"]), "jinja"]
        return super().handle(*args, **options)

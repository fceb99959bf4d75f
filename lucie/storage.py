"""The static files storage of production: whitenoise's compressed, hashed copies of our
scripts and stylesheets minified, with the board's ES modules' imports rewritten to the hashed
names too."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]

# whitenoise ships no type hints.
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]

# `import { say } from "./page.js";` and `import * as keys from "./keys.js";`: the only two
# forms static/js/board/ uses, always with a relative URL, double quotes and a semicolon.
MODULE_IMPORT = (
    r"(?P<matched>import(?P<names>\s*(?:\{[^}]*\}|\*\s*as\s+\w+))"
    r'\s*from\s*"(?P<url>\.\.?/[^"]+)";)',
    """import%(names)s from "%(url)s";""",
)


class ManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Each module must import its neighbours by their hashed names once collected: a module's
    URL is its cache key, and the hashed files are served as immutable, so a stale `./page.js`
    would outlive a deploy. Django can rewrite imports in every `*.js`
    (`support_js_module_import_aggregation`), but the vendored htmx extensions then fail to
    collect (a JSDoc type, `import("../htmx")`, reads as an import of a file that is not
    there): only our modules are rewritten. Their
    imports must form no cycle, or the hashes never settle ("Max post-process passes
    exceeded")."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("js/board/*.js", (MODULE_IMPORT,)),
    )

    def post_process(
        self, paths: dict[str, Any], dry_run: bool = False, **options: Any
    ) -> Iterator[Any]:
        """Our scripts and stylesheets are minified where collectstatic copied them, before they
        are hashed and compressed: what is served is small, and static/ stays written for
        people to read and edit."""
        if not dry_run:
            paths = dict(paths)
            for name in paths:
                if minifier(name) is not None:
                    copy = Path(self.path(name))
                    copy.write_text(minified(name, copy.read_text(encoding="utf-8")), "utf-8")
                    # Hashed from the minified copy, not from the source (Django reads each
                    # file from where `paths` says it was found).
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run, **options)


MINIFIERS: dict[str, Callable[[str], str]] = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def minifier(name: str) -> Callable[[str], str] | None:
    """How a static file is minified: ours only (static/js/, static/css/; not another app's
    files, which come as their authors ship them, nor anything already minified).

    >>> minifier("js/board/main.js") is rjsmin.jsmin, minifier("css/site.css") is rcssmin.cssmin
    (True, True)
    >>> minifier("django_htmx/htmx.min.js"), minifier("admin/css/base.css"), minifier("cards.svg")
    (None, None, None)
    """
    if not name.startswith(("js/", "css/")) or name.endswith(".min.js"):
        return None
    return MINIFIERS.get(Path(name).suffix)


def minified(name: str, text: str) -> str:
    """`text`, the content of the static file `name`, as it is served."""
    found = minifier(name)
    return text if found is None else found(text)

"""The static files storage of production: whitenoise's compressed, hashed copies, with the
board's ES modules' imports rewritten to the hashed names too."""

from __future__ import annotations

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

"""gunicorn's logger with its access line masked (lucie/logmask.py): the request line, the
path, the query and the referrer may carry an embed game's or a challenge's token."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from lucie.logmask import masked_atoms


class MaskedLogger(Logger):  # type: ignore[misc]
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        return masked_atoms(super().atoms(resp, req, environ, request_time))

"""gunicorn's logger with its access line masked (lucie/logmask.py): the request line, the
path, the query and the referrer may carry an embed game's or a challenge's token.

Only the atoms the line's format reads are masked, as it reads them: gunicorn hands the format
every request header, response header and environ entry, and masking all of them cost a request
more than the rest of its line."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger, SafeAtoms  # type: ignore[import-untyped]

from lucie.logmask import mask


class MaskedAtoms(SafeAtoms):  # type: ignore[misc]
    """gunicorn's atoms for the access line, each text masked when the format reads it."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return mask(value) if isinstance(value, str) else value


class MaskedLogger(Logger):  # type: ignore[misc]
    atoms_wrapper_class = MaskedAtoms

"""The one error a backup, its verify and a restore raise at any step, whichever module the step
lives in: a sentence an operator can act on, which `manage.py backup` and `restore` print before
they exit non-zero."""

from __future__ import annotations


class BackupError(Exception):
    """A backup or a restore that could not be made, with what an operator needs to know."""

"""The migrated SQLite template: a database file with every migration applied, kept in the
temporary folder under a name made from what its schema depends on (the migrations' text and
Django's version), so that a test database or a test's app server starts from a copy of it
instead of migrating again. tests/conftest.py writes it after the first migration of a run."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import django

TEMPLATES_DIR = Path(tempfile.gettempdir()) / "lucie-test-templates"
MIGRATIONS = Path(__file__).resolve().parents[2] / "game" / "migrations"


def migrated_template() -> Path:
    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(MIGRATIONS.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return TEMPLATES_DIR / f"{digest.hexdigest()[:20]}.sqlite3"

"""tests/helpers/frame_stack.py: a test's requests run on a fresh chunk of the frame stack, where
Python 3.11 does not map and unmap a chunk on every call across a chunk's edge."""

from __future__ import annotations

import resource

import pytest
from django.test import Client


def minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@pytest.mark.django_db
def test_thirty_renders_of_a_page_cost_no_fresh_chunk_each() -> None:
    client = Client()
    assert client.get("/deal/5/").status_code == 200  # templates loaded, the hint searched
    before = minor_faults()
    for _ in range(30):
        client.get("/deal/5/")
    # 31,867 page faults with the test run where pytest calls it (a chunk mapped and unmapped
    # some three hundred times a render), 1,928 at the start of a fresh chunk.
    assert minor_faults() - before < 10_000

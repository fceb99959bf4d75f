"""The queue's caps and fairness (game/ops/asking.py): a flood of reviews from a few addresses fills
only the reviews' share, an address's second job waits behind everyone's first, and a Show a win
asked meanwhile is still taken and searched."""

from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings

from game.ops import asking, leases, queue
from game.ops.jobs import OPEN, Job

pytestmark = pytest.mark.django_db


def test_fifty_review_asks_from_ten_addresses_leave_show_a_win_its_room(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    woken: list[tuple[str, int]] = []

    def wake(key: str, kind: str, *, behind: int = 0, priority: int | None = None) -> bool:
        woken.append((key, queue.PRIORITIES[kind] - min(behind, queue.BEHIND_MOST)))
        return True

    monkeypatch.setattr(leases, "wake", wake)
    outcomes = [
        asking.ask("review", f"review:{n}", str(n), asker=f"address-{n % 10}").outcome
        for n in range(50)
    ]
    cap = settings.QUEUE_CAPS["review"]
    assert outcomes.count("queued") == cap
    assert outcomes.count("full") == 50 - cap
    assert Job.objects.filter(kind="review").count() == cap  # a refused ask leaves no row
    priorities = [priority for _key, priority in woken]
    # Each address's first review goes at the reviews' priority, its second one below.
    assert priorities[:10] == [queue.PRIORITY_REVIEW] * 10
    assert priorities[10:20] == [queue.PRIORITY_REVIEW - 1] * 10
    # Show a win has a share of its own, and its priority is above every review's.
    assert asking.ask("show_a_win", "show_a_win:p", "lucie 7").outcome == "queued"
    assert woken[-1][1] > max(priorities)


def test_a_show_a_win_asked_during_a_flood_of_reviews_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[str] = []
    monkeypatch.setitem(queue.HANDLERS, "show_a_win", searched.append)
    monkeypatch.setitem(queue.HANDLERS, "review", lambda argument: None)
    for n in range(50):
        asking.ask("review", f"review:{n}", str(n), asker=f"address-{n % 10}")
    asked = asking.ask("show_a_win", "show_a_win:p", "lucie 7")
    assert asked.outcome == "queued"  # the queue here is immediate: the job has run
    assert searched == ["lucie 7"]
    assert Job.objects.get(key="show_a_win:p").state == Job.State.DONE


@pytest.mark.django_db(transaction=True)
def test_fifty_simultaneous_asks_never_pass_the_cap(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    """Fifty asks at the same moment, each on a connection of its own, against a cap of 20:
    the count and the new row are one statement, so exactly 20 are made (on PostgreSQL too)."""
    import threading

    from django.db import connection

    monkeypatch.setattr(leases, "wake", lambda *args, **kwargs: True)
    settings.QUEUE_CAPS = {**settings.QUEUE_CAPS, "review": 20}
    start = threading.Barrier(50)
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def ask_at_once(n: int) -> None:
        try:
            start.wait()
            outcomes.append(asking.ask("review", f"review:race:{n}", str(n)).outcome)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask_at_once, args=(n,)) for n in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert Job.objects.filter(kind="review", state__in=OPEN).count() == 20
    assert sorted(outcomes).count("queued") == 20
    assert outcomes.count("full") == 30

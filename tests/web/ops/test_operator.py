"""What an operator watches and reads: the queue's heartbeat and depth and the last good backup
on /metrics and /healthz, the nightly backup that keeps that time, a request log with no keys in
it, and cookies no script can read."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from game import schedule
from game.ops import asking, leases, watch
from game.ops.backup_verify import verify
from game.ops.jobs import Beat
from tests.helpers.metrics import figures, value
from tests.helpers.play import start
from tests.helpers.review import LOST_BEFORE_A_REDEAL, lost_game

pytestmark = pytest.mark.django_db


def test_metrics_and_healthz_show_the_queues_heartbeat_depth_and_last_good_backup(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leases, "wake", lambda key, kind, *, behind=0, priority=None: True)
    asking.ask("review", "review:1", "1")
    asking.ask("review", "review:2", "2")
    leases.claim("review:2", "a worker")
    asking.ask("show_a_win", "show_a_win:x", "lucie 5")
    moment = timezone.now().replace(microsecond=0)
    watch.beat("worker:host:1")
    Beat.objects.update_or_create(name=watch.BACKUP_BEAT, defaults={"at": moment})

    found = figures(client.get("/metrics").content.decode())
    assert value(found, "lucie_queue_jobs", kind="review", state="waiting") == 1
    assert value(found, "lucie_queue_jobs", kind="review", state="running") == 1
    assert value(found, "lucie_queue_jobs", kind="show_a_win", state="waiting") == 1
    assert value(found, "lucie_queue_jobs", kind="difficulty", state="waiting") == 0
    assert value(found, "lucie_queue_heartbeat_timestamp_seconds") > 0
    assert value(found, "lucie_backup_last_good_timestamp_seconds") == moment.timestamp()

    health = client.get("/healthz").content.decode().splitlines()
    assert health[0] == "ok"
    assert health[1].startswith("queue: last worker heartbeat")
    assert "review 1 waiting 1 running" in health[2]
    assert health[3].startswith("backup: last good")


@pytest.mark.django_db(transaction=True)  # the backup copies what is committed
def test_the_nightly_backup_is_written_verified_kept_and_its_time_kept(
    tmp_path: Path, settings: Settings, client: Client
) -> None:
    lost_game(client, LOST_BEFORE_A_REDEAL)
    day = dt.date(2026, 12, 3)
    old = tmp_path / "lucie-20261101.backup"
    old.write_bytes(b"an old copy")
    with time_machine.travel(dt.datetime(2026, 12, 3, 2, 41, tzinfo=dt.UTC), tick=False):
        written = schedule.nightly_backup(tmp_path, day)
        kept = Beat.objects.get(name=watch.BACKUP_BEAT)
    assert written == tmp_path / "lucie-20261203.backup"
    assert verify(written).games == 1
    assert kept.at == dt.datetime(2026, 12, 3, 2, 41, tzinfo=dt.UTC)
    assert not old.exists()  # older than BACKUP_KEEP_DAYS


def test_the_request_log_writes_no_token(client: Client, caplog: pytest.LogCaptureFixture) -> None:
    token = "Zq9xYw" * 5
    with caplog.at_level(logging.INFO, logger="lucie.requests"):
        client.get(f"/challenge/{token}/")
        client.get(f"/embed/g/{token}/")
        client.get(f"/replay/{token}/")
        client.get("/stats/transfer/?code=ABCD-1234")
    lines = [record.getMessage() for record in caplog.records if record.name == "lucie.requests"]
    assert len(lines) == 4
    assert all(token not in line and "ABCD-1234" not in line for line in lines), lines
    assert "/challenge/<token>/" in lines[0]
    assert "/replay/<token>/" in lines[2]


def test_every_cookie_the_site_sets_is_http_only(client: Client) -> None:
    page = client.get("/")
    moved = start(client)
    chosen = client.post("/language/", {"language": "fr", "next": "/"})
    cookies = {**page.cookies, **chosen.cookies, **client.cookies}
    assert moved is not None
    assert {"sessionid", "csrftoken", "django_language"} <= set(cookies)
    for name, morsel in cookies.items():
        assert morsel["httponly"], name

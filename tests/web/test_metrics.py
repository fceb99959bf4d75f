"""/metrics: Prometheus figures for the operator, only for the addresses METRICS_ALLOW names, added
up over gunicorn's worker processes; and one log line per request with its duration."""

from __future__ import annotations

import http.client
import ipaddress
import logging
import threading
from pathlib import Path

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from tests.helpers.metrics import figures, value
from tests.helpers.play import a_card_move, post, start
from tests.web.live_gunicorn import running_gunicorn


def scrape(
    client: Client, address: str = "127.0.0.1"
) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics", REMOTE_ADDR=address)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return figures(response.content.decode())


# ---------------------------------------------------------------- who may read them


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1"])
def test_loopback_reads_the_metrics(client: Client, address: str) -> None:
    assert client.get("/metrics", REMOTE_ADDR=address).status_code == 200


@pytest.mark.parametrize("address", ["203.0.113.7", "10.0.0.5", "::ffff:203.0.113.7", ""])
def test_any_other_address_finds_nothing_there(client: Client, address: str) -> None:
    response = client.get("/metrics", REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR="127.0.0.1")

    assert response.status_code == 404
    assert b"lucie_" not in response.content


def test_metrics_allow_names_the_scrapers_network(client: Client, settings: Settings) -> None:
    settings.METRICS_ALLOW = [ipaddress.ip_network("10.0.0.0/8")]

    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404


def test_metrics_are_served_whatever_the_host_header(client: Client) -> None:
    """Prometheus scrapes each server by its address, which ALLOWED_HOSTS does not list."""
    response = client.get("/metrics", HTTP_HOST="10.0.0.5:8000", REMOTE_ADDR="127.0.0.1")

    assert response.status_code == 200
    assert response.cookies == {}


def test_metrics_only_answer_get(client: Client) -> None:
    assert client.post("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 405


# ---------------------------------------------------------------- what they count


def test_requests_are_counted_and_timed_by_view(client: Client) -> None:
    before = scrape(client)
    for _ in range(3):
        client.get("/ping")
    client.get("/no/such/page/")
    after = scrape(client)

    ping = {"view": "ping", "method": "GET", "status": "200"}
    assert (
        value(after, "lucie_requests_total", **ping) - value(before, "lucie_requests_total", **ping)
        == 3
    )
    lost = {"view": "unresolved", "method": "GET", "status": "404"}
    assert (
        value(after, "lucie_requests_total", **lost) - value(before, "lucie_requests_total", **lost)
        == 1
    )
    timed = value(after, "lucie_request_seconds_count", view="ping") - value(
        before, "lucie_request_seconds_count", view="ping"
    )
    assert timed == 3


@pytest.mark.django_db
def test_moves_undos_games_hints_and_cache_lookups_are_counted(client: Client) -> None:
    before = scrape(client)
    game = start(client)
    assert post(client, game, "move", move=a_card_move(game).text).status_code in (200, 303)
    game.refresh_from_db()
    assert post(client, game, "undo").status_code in (200, 303)
    client.get(f"/game/{game.pk}/hint/")
    client.get(f"/game/{game.pk}/hint/")
    client.get("/daily/2026/11/")
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("lucie_moves_total") >= 1
    assert grew("lucie_undos_total") >= 1
    assert grew("lucie_games_started_total") == 1
    # One search, when the deal's page was shown with its hint ready (game/board/hints.py's
    # `ready`); the boards and hints after it, at the same position, read it from the cache.
    assert grew("lucie_hint_seconds_count") == 1
    assert grew("lucie_cache_lookups_total", cache="hint", result="miss") == 1
    assert grew("lucie_cache_lookups_total", cache="hint", result="hit") >= 2
    assert grew("lucie_cache_lookups_total", cache="figures", result="miss") == 1


@pytest.mark.django_db
def test_a_game_left_for_another_counts_as_finished(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)
    before = scrape(client)

    assert client.post("/deal/9/", {"rules": "lucie"}).status_code == 303

    after = scrape(client)
    grew = value(after, "lucie_games_finished_total", result="abandoned") - value(
        before, "lucie_games_finished_total", result="abandoned"
    )
    assert grew == 1


# ---------------------------------------------------------------- the request log


def test_each_request_is_one_log_line_with_its_duration_and_view(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="lucie.requests"):
        client.get("/ping?x=%0Aforged")

    lines = [record.getMessage() for record in caplog.records if record.name == "lucie.requests"]
    assert len(lines) == 1
    assert lines[0].startswith("GET /ping?x=%0Aforged 200 ")
    assert lines[0].endswith("ms view=ping")
    assert "\n" not in lines[0]


# ---------------------------------------------------------------- several worker processes


def _ping(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", "/ping", headers={"Host": "127.0.0.1", "Connection": "close"})
    assert connection.getresponse().status == 200
    connection.close()


def _worker_files(folder: Path) -> set[str]:
    return {path.stem.rsplit("_", 1)[-1] for path in folder.glob("counter_*.db")}


@pytest.mark.django_db(transaction=True)
def test_gunicorn_workers_figures_are_added_up(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    folder.mkdir()
    with running_gunicorn(
        tmp_path, workers=2, threads=1, PROMETHEUS_MULTIPROC_DIR=str(folder)
    ) as server:
        master = str(server.master)
        sent = 0
        # Fresh connections, several at once, until both workers have answered some.
        for _ in range(20):
            threads = [threading.Thread(target=_ping, args=(server.port,)) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            sent += len(threads)
            if len(_worker_files(folder) - {master}) >= 2:
                break
        workers = _worker_files(folder) - {master}
        assert len(workers) >= 2, "one worker answered everything: nothing to add up"
        answer = server.player().get("/metrics")

    assert answer.status == 200
    found = figures(answer.body)
    assert value(found, "lucie_requests_total", view="ping", method="GET", status="200") == sent

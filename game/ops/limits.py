"""What an anonymous client may cost the site.

- Size: a game's log is capped (every request's work grows with it: a move replays it, a replay
  renders it), and so is an imported record.
- Rate: requests that compute (hint, Show a win) or create rows (games, sessions, imports) are
  counted per client address and per session in Django's cache, with django-ratelimit; past a
  limit the answer is a 429 with `Retry-After`. The limits are far above what a person playing
  does (see docs/operating.md, "Limits"), so only a script meets them.
- Concurrency: the searches' slots and processes, and how long a request waits for one, are
  game/ops/searches.py's; a request it cannot serve is refused with `Busy` below.

The views turn `Limited` and `Busy` into a board with a message where they can (so the player
sees it where they pressed); anything else gets game.ops.refusal_pages.LimitsMiddleware's short
page.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy, gettext_noop
from django_ratelimit.core import get_usage

MAX_GAME_MOVES = 1000
"""Moves a game's log may hold, on the site, in the embed and in an imported record. Past it a
move is refused (undo still works), and a longer record is refused at import. A real game is far
shorter: one that plays every card home under the default rules takes about 100 moves."""

MAX_REPLAY_JUMPS = 12
"""Redeals the replay page offers a jump to (a game with unlimited redeals can have hundreds);
the first ones are listed, and Start and End always."""

MAX_STEPPED_MOVES = 300
"""Moves of a replay whose steps all come with its page, to be stepped with no request. Each
step's changed fans and foundations are drawn on the server, so a record of 1,000 moves (most of
them redeals, each a whole row of fans) came to 26 MB and 5 s of a server's time. A longer record
is stepped by its links, and its move list shows `REPLAY_LIST_AROUND` moves each side of the one
on show. A real game is far shorter (about 100 moves)."""

REPLAY_LIST_AROUND = 50

BUSY_RETRY_SECONDS = 2
# The player's words for each refusal, in English (the catalogues' msgids). A refusal's `message`
# is the same words translated lazily, so a page shows them in the language of its request.
BUSY_MESSAGE = gettext_noop("The site is busy just now: try again in a moment.")
UNSAVED_RETRY_SECONDS = 5
UNSAVED_MESSAGE = gettext_noop(
    "That could not be saved just now, so nothing was changed: try again in a moment."
)
UNREADABLE_MESSAGE = gettext_noop("This page could not be read just now: try again in a moment.")
LIMITED_MESSAGE = gettext_noop(
    "That was a lot of requests in a short time: wait a minute, then try again."
)


def _lazy(message: str) -> str:
    """`message` in the language active where it is shown (a lazy string, which every caller
    treats as the str it becomes: a template, a format, an HttpResponse)."""
    return cast(str, gettext_lazy(message))


class Limited(Exception):
    """A rate limit was met: the request was not served."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(LIMITED_MESSAGE)
        self.retry_after = max(1, retry_after)
        self.message = _lazy(LIMITED_MESSAGE)
        self.status = 429


class Busy(Exception):
    """Every compute slot is taken: the request was not served."""

    def __init__(self) -> None:
        super().__init__(BUSY_MESSAGE)
        self.retry_after = BUSY_RETRY_SECONDS
        self.message = _lazy(BUSY_MESSAGE)
        self.status = 503


class Unsaved(Exception):
    """The database refused a write (a full disk, a read-only database, a lost connection): the
    transaction was rolled back, so nothing changed. Not a limit, but refused the same way: a
    503 that says to try again, never Django's 500 page (/healthz then fails the server too).
    A page (GET) that met a database error says it could not be read instead."""

    def __init__(self, message: str = UNSAVED_MESSAGE) -> None:
        super().__init__(message)
        self.retry_after = UNSAVED_RETRY_SECONDS
        self.message = _lazy(message)
        self.status = 503

    @classmethod
    def answering(cls, method: str | None) -> Unsaved:
        """The refusal for a request of `method` that met a database error."""
        return cls(UNSAVED_MESSAGE if method == "POST" else UNREADABLE_MESSAGE)


Refused = Limited | Busy | Unsaved
REFUSED = (Limited, Busy, Unsaved)
View = Callable[..., HttpResponseBase]


# ---------------------------------------------------------------- rates


@dataclass(frozen=True)
class Rate:
    """A limit on one kind of request: `per_address` and `per_session` in django-ratelimit's
    form ("30/m"), None for none. Both count; the first met refuses."""

    group: str
    per_address: str | None
    per_session: str | None = None


# A hint found in the cache counts against nothing (game/board/hints.py); a searched one counts.
# A game following Hint takes 70-100 of them, which a fast player may ask within a minute: the
# session's limit counts in windows of 5 minutes (60 a minute on average, but a whole game at
# once), and the address's stays what holds a script on one address to 120 searches a minute
# (bench/attack.py measures what a looser one costs the pages beside it).
HINT = Rate("hint", per_address="120/m", per_session="300/5m")
SOLVE = Rate("solve", per_address="30/m", per_session="10/m")
# A new game: the first move of a deal on the site or in the embed, New game, a daily deal, a
# record played on. A game takes a person a few minutes at the very least.
START = Rate("start", per_address="60/m", per_session="20/m")
# A new session (the first thing a browser stores): one per browser, and a few per address.
SESSION = Rate("session", per_address="30/m")
IMPORT = Rate("import", per_address="20/m", per_session="10/m")
# Statistics moved to another device (game/stats/transfer.py): showing a code, and trying one. A
# code has 31^10 values and lives 15 minutes, so 10 tries a minute per network find one in about
# 10^11 years.
TRANSFER_CODE = Rate("transfer-code", per_address="10/m", per_session="3/m")
TRANSFER_REDEEM = Rate("transfer-redeem", per_address="10/m", per_session="5/m")
ADMIN_LOGIN = Rate("admin-login", per_address="10/m")
# A challenge link made for a finished game (game/challenge/): one row per game at most, made the
# first time its panel is shown; a person finishes a game every few minutes at the very most.
CHALLENGE = Rate("challenge", per_address="30/m", per_session="10/m")
RATES = (
    HINT, SOLVE, START, SESSION, IMPORT, TRANSFER_CODE, TRANSFER_REDEEM, ADMIN_LOGIN, CHALLENGE,
)  # fmt: skip


def client_address(request: HttpRequest) -> str:
    """The client's address as the site sees it (django-ratelimit's RATELIMIT_IP_META_KEY).

    Behind a proxy every request comes from the proxy's address, so the operator names the header
    the proxy sets (`LUCIE_CLIENT_ADDRESS_HEADER`, e.g. `X-Forwarded-For` or `X-Real-IP`). The
    last address in it is used: the one the nearest proxy wrote, which a client cannot forge (a
    client can only put addresses before it). Without a usable header, the connection's address.
    """
    return forwarded_address(request) or str(request.META.get("REMOTE_ADDR") or "0.0.0.0")


def forwarded_address(request: HttpRequest) -> str | None:
    """The address the proxy named (`LUCIE_CLIENT_ADDRESS_HEADER`'s last), or None when the
    request carries no usable one: then it came straight from the client, on a connection of its
    own."""
    header = settings.CLIENT_ADDRESS_HEADER
    if not header:
        return None
    meta = "HTTP_" + header.upper().replace("-", "_")
    listed = str(request.META.get(meta, "")).split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(listed))
    except ValueError:
        return None


def client_network(request: HttpRequest) -> str:
    """The client's network: its IPv4 address, or the /64 its IPv6 address is in (one household
    or host is handed a whole /64, so counting each address apart would give it 2^64 limits)."""
    address = ipaddress.ip_address(client_address(request))
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def network_tag(request: HttpRequest) -> str:
    """A short keyed hash of the client's network, to tell one network's daily entries apart
    without keeping any address (Game.network)."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), b"network:" + client_network(request).encode(), "sha256"
    )
    return digest.hexdigest()[:16]


def _address(group: str, request: HttpRequest) -> str:
    return client_network(request)


def _session(group: str, request: HttpRequest) -> str:
    return request.session.session_key or ""


def check(request: HttpRequest, rate: Rate, *, session: bool = True) -> None:
    """Count this request against `rate`; raise Limited when a limit is met. The embed passes
    `session=False`: it never reads a session (nor sets a cookie). A request is counted once per
    rate, however many of its searches ask (a hint's search that runs out of time leaves the
    board's ready hint to search again, in the same request)."""
    counted: dict[str, int | None] = request.__dict__.setdefault("_lucie_rates_counted", {})
    if rate.group in counted:
        refused = counted[rate.group]
        if refused is not None:
            raise Limited(refused)
        return
    counted[rate.group] = None
    keys = [(_address, rate.per_address)]
    # A request with no session is counted by its address alone (never in one shared bucket).
    if session and rate.per_session and request.session.session_key:
        keys.append((_session, rate.per_session))
    for key, limit in keys:
        if limit is None:
            continue
        usage = get_usage(request, group=rate.group, key=key, rate=limit, increment=True)
        if usage is not None and usage["should_limit"]:
            time_left = int(usage["time_left"])
            counted[rate.group] = time_left
            raise Limited(time_left)


def rate_limited(rate: Rate, *methods: str) -> Callable[[View], View]:
    """A view decorator: `check` each request (of `methods`, or every request) against `rate`."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not methods or request.method in methods:
                check(request, rate)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate

"""Typed readers for settings taken from the environment.

Each reader returns the default when the variable is unset or empty, and
raises ImproperlyConfigured when it is set to something it cannot read, so a
typo in a deployment stops the process at start-up instead of being guessed at.
"""

from __future__ import annotations

import ipaddress
import os
import re
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_MONTH = re.compile(r"(\d{4})-(\d{2})")


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(name: str, default: int, minimum: int = 0) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around and between items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of `choices`, compared without regard to case; returned as written in `choices`."""
    value = env_str(name, default)
    for choice in choices:
        if value.lower() == choice.lower():
            return choice
    raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}.")


def env_origins(name: str) -> list[str]:
    origins = env_list(name, [])
    for origin in origins:
        if not origin.startswith(("http://", "https://")):
            raise ImproperlyConfigured(
                f"{name} entry {origin!r} needs a scheme, e.g. https://{origin}."
            )
    return origins


def env_month(name: str, default: str) -> str:
    """A calendar month written YYYY-MM."""
    value = env_str(name, default)
    match = _MONTH.fullmatch(value)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise ImproperlyConfigured(f"{name}={value!r} is not a month written YYYY-MM.")
    return value


_REDIS_SCHEMES = ("redis", "rediss", "unix")


def env_redis_url(name: str) -> str | None:
    """A Redis URL (`redis://host:port/db`, `rediss://` for TLS, `unix:///path.sock`), or None.

    Checked here rather than at the first cache call: a typo would otherwise start a server that
    fails every request that touches the cache."""
    value = _raw(name)
    if value is None:
        return None
    try:
        parts = urlsplit(value)
        port = parts.port  # ValueError when not a number from 0 to 65535
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}={value!r} cannot be read: {error}.") from None
    if parts.scheme not in _REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"{name}={value!r} must start with redis://, rediss:// or unix://."
        )
    if parts.scheme == "unix":
        if not parts.path:
            raise ImproperlyConfigured(f"{name}={value!r} names no socket path.")
        return value
    if not parts.hostname:
        raise ImproperlyConfigured(f"{name}={value!r} names no host.")
    if port == 0:
        raise ImproperlyConfigured(f"{name}={value!r}: port 0 cannot be connected to.")
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise ImproperlyConfigured(
            f"{name}={value!r}: the database after the host must be a number."
        )
    return value


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def env_networks(name: str, default: list[str]) -> list[IPNetwork]:
    """A comma-separated list of addresses or networks (`127.0.0.1`, `10.0.0.0/8`, `::1`)."""
    networks = []
    for item in env_list(name, default):
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} entry {item!r} is not an address or a network (10.0.0.0/8)."
            ) from None
    return networks

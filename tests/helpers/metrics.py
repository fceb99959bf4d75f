"""Prometheus figures read from a scrape."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def figures(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample as {(name, labels): value}."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)

"""lucie/csp.py: the site's policy header, built once for the responses that change nothing,
is the header django-csp's own middleware gives, for every kind of response."""

from __future__ import annotations

from typing import Any

import pytest
from csp import middleware as csp_middleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from lucie import csp

HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")


def headers_of(middleware_class: type, path: str = "/", **attributes: Any) -> dict[str, str]:
    request = RequestFactory().get(path)
    found = middleware_class(lambda request: None)
    found.process_request(request)
    response = HttpResponse("hello")
    for name, value in attributes.items():
        setattr(response, name, value)
    found.process_response(request, response)
    return {name: response[name] for name in HEADERS if name in response}


CASES: list[dict[str, Any]] = [
    {},
    {"_csp_update": {"img-src": ["https://example.org"]}},
    {"_csp_replace": {"frame-ancestors": ["*"]}},
    {"_csp_config": {"default-src": ["'none'"]}},
    {"_csp_exempt": True},
]


@pytest.mark.parametrize("attributes", CASES)
def test_the_header_is_django_csps(attributes: dict[str, Any]) -> None:
    ours = headers_of(csp.CSPMiddleware, **attributes)
    theirs = headers_of(csp_middleware.CSPMiddleware, **attributes)
    assert ours == theirs
    if not attributes:
        assert "default-src 'self'" in ours["Content-Security-Policy"]


def test_a_changed_setting_changes_the_header_and_report_only_is_sent_too() -> None:
    policy = {"DIRECTIVES": {"default-src": ["'none'"], "img-src": ["'self'"]}}
    report = {"DIRECTIVES": {"default-src": ["'self'"]}, "EXCLUDE_URL_PREFIXES": ["/skip"]}
    with override_settings(
        CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=report
    ):
        ours = headers_of(csp.CSPMiddleware)
        assert ours == headers_of(csp_middleware.CSPMiddleware)
        # django-csp's order of directives follows a set's: the directives, not their order.
        assert "default-src 'none'" in ours["Content-Security-Policy"].split("; ")
        assert set(ours) == set(HEADERS)
        skipped = headers_of(csp.CSPMiddleware, "/skip/this")
        assert skipped == headers_of(csp_middleware.CSPMiddleware, "/skip/this")
        assert "Content-Security-Policy-Report-Only" not in skipped
    assert "default-src 'self'" in headers_of(csp.CSPMiddleware)["Content-Security-Policy"]


@pytest.mark.django_db
def test_a_page_and_the_embeds_own_policy(client: Any) -> None:
    page = client.get("/rules/")
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]
    frame = client.get("/embed/deal/5/")
    assert frame.status_code == 200
    assert "frame-ancestors 'none'" not in frame["Content-Security-Policy"]

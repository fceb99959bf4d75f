"""django-csp's middleware, with the policy of a response that asks for nothing of its own built
once rather than on every response.

django-csp builds the `Content-Security-Policy` header afresh for every response (its parts
copied with `dataclasses.asdict`, then joined): about 0.2 ms of each request's CPU here, a twentieth
of a move (bench/load.py). Most responses take the site's policy unchanged: no view's own
policy (`@csp`, `@csp_update`, ... set `_csp_*` on the response) and no nonce asked for (this site
uses none). For those, the two headers are built once per settings value and reused; any other
response goes through django-csp's own `process_response`, unchanged.
"""

from __future__ import annotations

import functools
from http import HTTPStatus

from csp import middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

PLAIN = middleware.PolicyParts(None, None, None, None)
SETTINGS = (
    (HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY", False),
    (HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
)


@functools.lru_cache(maxsize=8)
def _plain_policy(setting: str, report_only: bool, _value: str) -> str:
    """The site's policy with nothing changed; `_value` (the setting's repr) keys the cache."""
    return build_policy(report_only=report_only)


class CSPMiddleware(middleware.CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        debug_page = settings.DEBUG and response.status_code in (
            HTTPStatus.INTERNAL_SERVER_ERROR,
            HTTPStatus.NOT_FOUND,
        )
        if (
            debug_page
            or self.get_policy_parts(request=request, response=response) != PLAIN
            or self.get_policy_parts(request=request, response=response, report_only=True) != PLAIN
        ):
            return super().process_response(request, response)
        for header, exempt, name, report_only in SETTINGS:
            value = getattr(settings, name, None) or {}
            policy = _plain_policy(name, report_only, repr(value))
            prefixes = tuple(value.get("EXCLUDE_URL_PREFIXES", None) or ())
            if (
                policy
                and not getattr(response, exempt, False)
                and header not in response
                and not request.path_info.startswith(prefixes)
            ):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        post_response = middleware.CheckableLazyObject(self._csp_nonce_post_response)
        request.csp_nonce = post_response  # type: ignore[attr-defined]
        return response

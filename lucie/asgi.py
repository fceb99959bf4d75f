"""ASGI entry point. The site is served over WSGI (gunicorn, lucie/wsgi.py); served through this
one instead, a request already past a rate limit is refused by its view, at a page's cost, since
the early refusal (game/ops/early_refusal.py) is a WSGI front."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")

application = get_asgi_application()

"""WSGI entry point, e.g. `gunicorn lucie.wsgi`: Django's application behind the front that
settings.WSGI_FRONT names, which answers a request already past a rate limit before Django's
handler and middleware (game/ops/early_refusal.py). Named by its dotted path, as middleware is:
lucie imports nothing from game."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.utils.module_loading import import_string

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")

django_application = get_wsgi_application()
application = import_string(settings.WSGI_FRONT)(django_application)

"""WSGI entry point, e.g. `gunicorn lucie.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")

application = get_wsgi_application()

"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the Origin check (``AllowedHostsOriginValidator``) and the session
authentication middleware before reaching a consumer.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

if settings.EMBEDDED_WORKER:
    from config.embedded_worker import embedded_worker_start

    embedded_worker_start()

# Everything loaded so far (Django, the apps, the URL and template machinery) lives as
# long as the process. Left in the collector's generations it made every full
# collection walk it: 54-77 ms pauses of the whole server under load (bench/
# RESULTS.md, table socket). Frozen, it is never scanned.
gc.freeze()

"""ASGI entry point: HTTP through Django, WebSockets through Channels.

WebSockets pass the Origin check (``AllowedHostsOriginValidator``) and reach their
consumer with the session's user in the scope, unloaded: the consumer accepts the
handshake, then loads it (``realtime.auth``), so no database work comes before the
handshake is answered. The whole application is
wrapped by ``realtime.outbox.asgi_wrap``, which registers the loop that serves it, so
frames committed by worker threads are sent on that loop (see ``realtime.outbox``).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.language import LanguageScopeMiddleware  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from realtime.auth import LazyAuthMiddlewareStack  # noqa: E402
from realtime.outbox import asgi_wrap  # noqa: E402

application = asgi_wrap(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                LazyAuthMiddlewareStack(
                    LanguageScopeMiddleware(URLRouter(websocket_urlpatterns))
                )
            ),
        }
    )
)

if settings.EMBEDDED_WORKER:
    from config.embedded_worker import embedded_worker_start

    embedded_worker_start()

# Everything loaded so far (Django, the apps, the URL and template machinery) lives as
# long as the process. Left in the collector's generations it makes every full
# collection walk it: pauses of the whole server of tens of milliseconds under load
# (``bench/ws_load.py`` shows them in its tail latencies). Frozen, it is never scanned.
gc.freeze()

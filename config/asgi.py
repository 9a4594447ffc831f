"""ASGI entry point: the site's pages (HTTP) and the game rooms' WebSockets
(tournaments/online/routing.py, docs/online.md). WSGI (config/wsgi.py) still serves
every page where no WebSocket is needed."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django first: the consumers import models, which need the apps loaded
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.online.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]
        ),
    }
)

# A process serving game rooms keeps their replays and legal turns (Kept, in
# services/online/game.py): a heap of some million objects, whose full collections
# stalled each process 0.1-0.3 s eight times in 45 s of `make bench-play GAMES=200`
# (docs/online.md). The start-up's objects are left out of every collection (freeze),
# and the oldest generation is collected a hundred times less often; cycles are rare
# there, and reference counting frees the rest as before.
GC_THRESHOLDS = (700, 10, 1000)
gc.freeze()
gc.set_threshold(*GC_THRESHOLDS)

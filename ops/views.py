"""``/healthz`` and the staff beacon."""

import ipaddress
import logging
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.requests import client_address
from ops.checks import CHECKS, Behind
from ops.metrics import metrics_text
from ops.services import beacon_schedule, beacon_state

logger = logging.getLogger(__name__)


def may_see_details(request: HttpRequest) -> bool:
    """Staff, and probes from this machine (monitoring, a load balancer on it)."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with every component's state when all are up; 503 naming what is down.

    ``?only=database,channel_layer`` checks just those: a load balancer should not
    take every web process out because the worker is down. What each component
    runs on and why it is down (host names, error texts) is for staff and local
    probes only; anyone else gets the status names. A component alive but behind
    (a worker with a backlog) is ``"behind"``, listed apart and not down."""
    only = [n for n in request.GET.get("only", "").split(",") if n in CHECKS]
    components: dict[str, dict[str, Any]] = {}
    down = []
    behind = []
    for name, check in CHECKS.items():
        if only and name not in only:
            continue
        try:
            components[name] = {"status": "up", "backend": check()}
        except Behind as exc:
            logger.warning("healthz: %s is behind: %s", name, exc)
            components[name] = {"status": "behind", "backend": str(exc), **exc.details}
            behind.append(name)
        except Exception as exc:
            logger.warning("healthz: %s is down: %s", name, exc)
            components[name] = {"status": "down", "error": str(exc)[:200]}
            down.append(name)
    if not may_see_details(request):
        components = {n: {"status": c["status"]} for n, c in components.items()}
    body = {
        "status": "down" if down else "behind" if behind else "ok",
        "down": down,
        "behind": behind,
        "components": components,
    }
    return JsonResponse(body, status=503 if down else 200)


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus exposition; nginx serves it to the monitoring network only."""
    from prometheus_client import CONTENT_TYPE_LATEST

    return HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)


@staff_member_required
@require_POST
def beacon_start(request: HttpRequest) -> JsonResponse:
    try:
        countdown = float(request.POST.get("countdown", "1"))
    except ValueError:
        return JsonResponse({"error": "countdown must be a number"}, status=400)
    if not 0 <= countdown <= 60:
        return JsonResponse({"error": "countdown must be 0-60 seconds"}, status=400)
    return JsonResponse({"token": beacon_schedule(countdown=countdown)}, status=202)


@staff_member_required
@require_GET
def beacon_status(request: HttpRequest, token: str) -> JsonResponse:
    state = beacon_state(token=token)
    if state is None:
        return JsonResponse({"error": "unknown beacon"}, status=404)
    return JsonResponse({"token": token, "state": state})

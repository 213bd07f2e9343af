"""Reporting a chat line to the staff (the page's script posts here)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chat.errors import ChatError
from chat.services import chat_report
from core.requests import SignedInRequest


@login_required
@require_POST
def report(request: SignedInRequest, line_id: int) -> JsonResponse:
    try:
        chat_report(line_id=line_id, user=request.user)
    except ChatError as err:
        return JsonResponse(err.as_json(), status=400)
    return JsonResponse({"message": _("Thank you: the staff will read it.")})

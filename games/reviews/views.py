"""The review of a finished hand: its page, its JSON (progress, then the verdict
on each move), and the request for a deeper review.

A signed-in player opening the page of a finished hand queues its review if
there is none yet (``services.review_request``, under an hourly limit); the page
then polls the JSON until it is done. Anyone else reads only reviews already
made: the page says the review is not ready and how to ask for it. The JSON only
reads: the replay viewer asks it for each hand and queues nothing. Access is the
replay's (``access``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from games.models import HandReview, Seat
from games.names import table_title
from games.reviews.access import ReviewNotYet, review_table_or_404
from games.reviews.present import review_context, review_moves
from games.reviews.services import ReviewRefused, review_deeper, review_request
from games.reviews.steps import hands_finished


def _share(request: HttpRequest) -> str | None:
    return request.GET.get("share") or None


def _with_share(url: str, share: str | None) -> str:
    return f"{url}?share={share}" if share else url


def table_review(request: HttpRequest, table_id: int, hand: int) -> HttpResponse:
    """The review page of hand ``hand``; queues the review on a signed-in
    player's first sight (``services.review_request``), else says how to get it."""
    share = _share(request)
    try:
        table = review_table_or_404(
            table_id=table_id, hand=hand, user=request.user, share=share
        )
    except ReviewNotYet as not_yet:
        messages.info(request, str(not_yet))
        return redirect("table", table_id=table_id)
    refused: ReviewRefused | None = None
    row: HandReview | None
    try:
        row = review_request(table=table, hand=hand, user=request.user)
    except ReviewRefused as refusal:
        refused, row = refusal, None
    seated = request.user.is_authenticated and (
        Seat.objects.filter(table=table, user=request.user).exists()
    )
    here = _with_share(reverse("table-review", args=[table.pk, hand]), share)
    context: dict[str, Any] = {
        "table": table,
        "hand": hand,
        "row": row,
        "refused": refused,
        "sign_in": None
        if request.user.is_authenticated
        else f"{reverse('account_login')}?{urlencode({'next': here})}",
        "title": table_title(table),
        "hands": range(1, hands_finished(table=table) + 1),
        "share": share,
        "may_deepen": seated
        and row is not None
        and row.status == HandReview.Status.DONE
        and row.depth == HandReview.Depth.STANDARD,
        "replay": _with_share(reverse("table-replay", args=[table.pk]), share),
        "config": {
            "poll": _with_share(
                reverse("table-review-json", args=[table.pk, hand]), share
            ),
            "waiting": row is not None
            and row.status in (HandReview.Status.QUEUED, HandReview.Status.RUNNING),
        },
    }
    if row is not None and row.result is not None:
        context.update(review_context(row=row, table=table, viewer=request.user))
    return render(request, "games/review.html", context)


def table_review_json(request: HttpRequest, table_id: int, hand: int) -> JsonResponse:
    """The review's status and progress, and once done each move's verdict."""
    table = review_table_or_404(
        table_id=table_id, hand=hand, user=request.user, share=_share(request)
    )
    row = HandReview.objects.filter(table=table, hand=hand).first()
    url = _with_share(reverse("table-review", args=[table.pk, hand]), _share(request))
    if row is None:
        return JsonResponse({"hand": hand, "status": "none", "url": url})
    body: dict[str, Any] = {
        "hand": hand,
        "status": row.status,
        "progress": row.progress,
        "depth": row.depth,
        "url": url,
    }
    if row.result is not None:
        body["moves"] = review_moves(row=row)
    response = JsonResponse(body)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def table_review_deeper(
    request: SignedInRequest, table_id: int, hand: int
) -> HttpResponse:
    """A seated player asks for a deeper review of the hand."""
    table = review_table_or_404(table_id=table_id, hand=hand, user=request.user)
    if not Seat.objects.filter(table=table, user=request.user).exists():
        messages.error(request, ReviewRefused.not_seated().message)
    else:
        try:
            review_deeper(table=table, hand=hand, user=request.user)
        except ReviewRefused as refused:
            messages.error(request, refused.message)
    return redirect("table-review", table_id=table.pk, hand=hand)

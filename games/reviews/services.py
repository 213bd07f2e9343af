"""Queue, run and deepen hand reviews.

* ``review_request``: the review of a finished hand, queued once, and only for a
  signed-in player under ``settings.REVIEW_REQUESTS_PER_HOUR``: a review costs
  seconds of CPU, so a visitor who is not signed in (a crawler walking table
  ids) only reads reviews already made. The row is unique per (table, hand): of
  two requests at once one creates it and queues the task, the other reads it;
  a request while it waits or runs does nothing.
* ``review_run`` (the task ``games.review_hand``): computes it in the worker,
  writing its progress as decisions are reviewed; a second delivery of the
  same task does nothing (the row moves from queued to running once).
* ``review_deeper``: a player's request for a deeper review of a hand whose
  standard review is done: once per hand, a few times an hour per player.

Reviews go to their own queue, ``settings.REVIEW_QUEUE``, which only a review
worker of one thread consumes (``config.review_worker``; in the embedded
default, a second in-process worker of one thread): a review never takes a
table worker's thread, so it never delays a move (docs/review.md, "In the
product").
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.refusals import Refusal
from games.models import HandReview, Table
from games.review.export import review_to_json
from games.review.hand import budget_for, hand_review_with
from games.reviews.steps import hand_steps

logger = logging.getLogger(__name__)

REVIEW_TASK = "games.review_hand"
# A queued review whose task has not started in this time lost its message (a
# broker restart): the next request sends it again.
QUEUED_LOST = timedelta(minutes=10)
# A running review not finished in this time lost its worker: it may run again.
RUNNING_LOST = timedelta(minutes=30)
DEEP_WINDOW = 3600  # seconds: the deeper-review limit counts per hour
ASK_WINDOW = 3600  # seconds: the review-request limit counts per hour


class ReviewRefused(Refusal):
    """A deeper review refused, with nothing changed."""

    @classmethod
    def not_seated(cls) -> ReviewRefused:
        return cls(
            "review_not_seated",
            gettext("Only the players of this game can ask for a deeper review."),
        )

    @classmethod
    def signed_out(cls) -> ReviewRefused:
        return cls(
            "review_signed_out",
            gettext(
                "This hand has not been reviewed yet. Log in to ask for its review."
            ),
        )

    @classmethod
    def rate(cls) -> ReviewRefused:
        return cls(
            "review_request_rate",
            gettext(
                "This hand has not been reviewed yet, and you have asked for many"
                " reviews this hour; try again later."
            ),
        )


def _queue(review_id: int) -> None:
    """Send ``games.review_hand`` once the current transaction commits."""

    def send() -> None:
        current_app.send_task(
            REVIEW_TASK,
            args=(review_id,),
            queue=settings.REVIEW_QUEUE,
            ignore_result=True,
        )

    transaction.on_commit(send)


def _lost(row: HandReview, now: datetime) -> bool:
    """Whether ``row`` waits for a task whose message was lost (sent again)."""
    return (
        row.status == HandReview.Status.QUEUED
        and row.queued_at is not None
        and row.queued_at < now - QUEUED_LOST
    )


def _ask_key(user_id: int) -> str:
    return f"review:ask:{user_id}"


def _take_ask(user_id: int) -> bool:
    """Count one review queued for ``user_id`` this hour; False (nothing
    counted) when the player has reached ``settings.REVIEW_REQUESTS_PER_HOUR``.
    The increment is atomic, so requests at once never pass the limit together."""
    key = _ask_key(user_id)
    cache.add(key, 0, timeout=ASK_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=ASK_WINDOW)
        count = 1
    if count > settings.REVIEW_REQUESTS_PER_HOUR:
        _give_back_ask(user_id)
        return False
    return True


def _give_back_ask(user_id: int) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing to give
        cache.decr(_ask_key(user_id))


def review_request(*, table: Table, hand: int, user: Any) -> HandReview:
    """The review of ``table``'s finished hand ``hand`` (the caller has checked
    the hand is over and ``user`` may read it): the stored row when there is
    one, else created and queued for a signed-in ``user`` within their hourly
    limit. Refused (``ReviewRefused``, nothing created or queued) when the
    hand has no review and ``user`` may not ask for one: not signed in, or
    over the limit. A queued row whose message was lost is sent again on a
    signed-in player's request (counted like a new one)."""
    now = timezone.now()
    row = HandReview.objects.filter(table=table, hand=hand).first()
    if row is not None and not _lost(row, now):
        return row
    if not getattr(user, "is_authenticated", False):
        if row is not None:
            return row
        raise ReviewRefused.signed_out()
    if not _take_ask(user.pk):
        if row is not None:
            return row
        raise ReviewRefused.rate()
    with transaction.atomic():
        row, created = HandReview.objects.get_or_create(
            table=table, hand=hand, defaults={"queued_at": now}
        )
        if created or (
            _lost(row, now)
            and row.queued_at is not None
            # Sent again once: the task runs a queued review only once.
            and HandReview.objects.filter(
                pk=row.pk, status=HandReview.Status.QUEUED, queued_at=row.queued_at
            ).update(queued_at=now)
        ):
            _queue(row.pk)
            return row
    # Another request made or re-sent it meanwhile: this one queued nothing.
    _give_back_ask(user.pk)
    return row


def _count_deep(user_id: int) -> int:
    return int(cache.get(f"review:deep:{user_id}", 0))


def _add_deep(user_id: int) -> None:
    key = f"review:deep:{user_id}"
    cache.add(key, 0, timeout=DEEP_WINDOW)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=DEEP_WINDOW)


def review_deeper(*, table: Table, hand: int, user: Any) -> HandReview:
    """Queue a deeper review of a hand whose standard review is done, replacing
    it when done; refused (``ReviewRefused``, nothing changed) when the hand
    has no finished standard review, already has a deep one, or the player
    asked for too many this hour."""
    row = HandReview.objects.filter(table=table, hand=hand).first()
    if row is None or row.status in (
        HandReview.Status.QUEUED,
        HandReview.Status.RUNNING,
    ):
        raise ReviewRefused(
            "review_busy",
            gettext("This hand's review is still being computed; wait for it first."),
        )
    if row.depth == HandReview.Depth.DEEP:
        raise ReviewRefused(
            "review_deep_done", gettext("This hand already has a deeper review.")
        )
    if row.status != HandReview.Status.DONE:
        raise ReviewRefused(
            "review_failed",
            gettext(
                "This hand's review could not be computed, so it cannot go deeper."
            ),
        )
    if _count_deep(user.pk) >= settings.REVIEW_DEEP_PER_HOUR:
        raise ReviewRefused(
            "review_rate",
            gettext(
                "You have asked for many deeper reviews this hour; try again later."
            ),
        )
    with transaction.atomic():
        changed = HandReview.objects.filter(
            pk=row.pk, status=HandReview.Status.DONE, depth=HandReview.Depth.STANDARD
        ).update(
            depth=HandReview.Depth.DEEP,
            status=HandReview.Status.QUEUED,
            progress=0,
            queued_at=timezone.now(),
            deep_requested_by=user,
        )
        if not changed:
            raise ReviewRefused(
                "review_deep_done", gettext("This hand already has a deeper review.")
            )
        _queue(row.pk)
    _add_deep(user.pk)
    row.refresh_from_db()
    return row


def review_run(*, review_id: int) -> bool:
    """Compute review ``review_id`` if it waits (or its worker was lost); False
    when there was nothing to do."""
    now = timezone.now()
    with transaction.atomic():
        row = (
            HandReview.objects.select_for_update()
            .select_related("table")
            .filter(pk=review_id)
            .first()
        )
        if row is None:
            return False
        lost = (
            row.status == HandReview.Status.RUNNING
            and row.started_at is not None
            and row.started_at < now - RUNNING_LOST
        )
        if row.status != HandReview.Status.QUEUED and not lost:
            return False
        row.status = HandReview.Status.RUNNING
        row.started_at = now
        row.progress = 0
        row.save(update_fields=["status", "started_at", "progress"])
    shown = [0]

    def progress(percent: int) -> None:
        # The last part (storing) ends at 100; a row that changed hands is left.
        percent = min(percent, 99)
        if percent > shown[0]:
            shown[0] = percent
            HandReview.objects.filter(
                pk=review_id, status=HandReview.Status.RUNNING
            ).update(progress=percent)

    try:
        steps = hand_steps(table=row.table, hand=row.hand)
        if not steps.finished or not steps.steps:
            raise ValueError(f"hand {row.hand} of table {row.table_id} is not over")
        options = steps.steps[0][0].options
        budget = budget_for(options, deep=row.depth == HandReview.Depth.DEEP)
        review = hand_review_with(
            steps.steps, budget, seed=row.table_id, progress=progress
        )
        data = review_to_json(review, options, seqs=steps.seqs, budget=budget)
        data["depth"] = row.depth
    except Exception as exc:
        logger.exception("review %s failed", review_id)
        failed = HandReview.objects.filter(pk=review_id)
        if row.result is not None:
            # A deeper review failed: the standard one stays, and may be asked again.
            failed.update(
                status=HandReview.Status.DONE,
                depth=HandReview.Depth.STANDARD,
                progress=100,
                error=str(exc)[:500],
            )
        else:
            failed.update(
                status=HandReview.Status.FAILED,
                error=str(exc)[:500],
                finished_at=timezone.now(),
            )
        return True
    HandReview.objects.filter(pk=review_id).update(
        status=HandReview.Status.DONE,
        progress=100,
        result=data,
        error="",
        finished_at=timezone.now(),
    )
    return True

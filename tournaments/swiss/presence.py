"""Who has a Swiss event's page open: at a round's start, only they are paired;
an entrant whose page is closed is absent and scores nothing that round
(docs/tournaments.md, "Swiss events"). The keys are ``tournaments.presence``'s."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.presence import page_clear, page_mark, page_present_among

KIND = "swiss"


def presence_mark(*, event_id: int, user_id: int) -> None:
    page_mark(kind=KIND, event_id=event_id, user_id=user_id)


def presence_clear(*, event_id: int, user_id: int) -> None:
    page_clear(kind=KIND, event_id=event_id, user_id=user_id)


def present_among(*, event_id: int, user_ids: Iterable[int]) -> set[int]:
    """The players of ``user_ids`` who have the event's page open now."""
    return page_present_among(kind=KIND, event_id=event_id, user_ids=user_ids)

"""Who has an arena's page open: only they are paired (docs/tournaments.md).

A player who finished a game is not paired again until they come back to the
arena's page, so nobody is seated at a table they do not see (and loses it on the
clock). The keys are ``tournaments.presence``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.presence import page_clear, page_mark, page_present_among

KIND = "arena"


def presence_mark(*, arena_id: int, user_id: int) -> None:
    page_mark(kind=KIND, event_id=arena_id, user_id=user_id)


def presence_clear(*, arena_id: int, user_id: int) -> None:
    page_clear(kind=KIND, event_id=arena_id, user_id=user_id)


def present_among(*, arena_id: int, user_ids: Iterable[int]) -> set[int]:
    """The players of ``user_ids`` who have the arena's page open now."""
    return page_present_among(kind=KIND, event_id=arena_id, user_ids=user_ids)


def present_at_least(*, arena_id: int, user_ids: Sequence[int], count: int) -> bool:
    """Whether at least ``count`` of ``user_ids`` have the arena's page open:
    ``present_among`` read a few keys at a time, stopping as soon as it knows (the
    pairing's check before it takes the arena's lock, where most of a thousand
    players are usually here)."""
    if count <= 0:
        return True
    found = 0
    step = max(4 * count, 32)
    for start in range(0, len(user_ids), step):
        found += len(
            present_among(arena_id=arena_id, user_ids=user_ids[start : start + step])
        )
        if found >= count:
            return True
    return False

"""The event a table was seated for (an arena, a sit-and-go): a link back to it.

The apps that run events seat ordinary online tables; ``games`` imports none of
them, so each registers a look-up here (``TournamentsConfig.ready``). The table
page asks once when it loads (:func:`table_event_link`); the move path never does.
A look-up may also tell a player's standing in the event (:func:`table_event_standing`),
which the result screen asks for when the table ends: the event's prize is the
event's, not the table's, and is decided (and paid) when the event finishes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class EventLink:
    """Where the table's players go back to, and the link's words (translated
    when the look-up runs, in the reader's language)."""

    url: str
    label: str


@dataclass(frozen=True)
class EventStanding:
    """One player's standing in an event: its page (with the standings), its
    ``state`` ("running"; "finished", its prizes paid; or "cancelled", its entries
    refunded), and once finished the player's final place and prize (``place`` is
    None before, or for a player who took no place)."""

    url: str
    state: Literal["running", "finished", "cancelled"]
    place: int | None = None
    coins: int = 0
    xp: int = 0


EventLookup = Callable[[int], EventLink | None]
StandingLookup = Callable[[int, int], EventStanding | None]


@dataclass(frozen=True)
class _Lookup:
    find: EventLookup
    modes: frozenset[str]
    standing: StandingLookup | None


_registry: dict[str, _Lookup] = {}


def event_link_register(
    name: str,
    find: EventLookup,
    *,
    modes: Collection[str],
    standing: StandingLookup | None = None,
) -> None:
    """Register ``find(table_id)`` for the tables of ``modes`` under ``name``
    (registering the same name again replaces it, as a reloaded app does). It
    returns the event's link, or None for a table no such event seated.
    ``standing(table_id, user_id)`` returns a player's standing in that event."""
    _registry[name] = _Lookup(find=find, modes=frozenset(modes), standing=standing)


def table_event_link(*, table_id: int, mode: str) -> EventLink | None:
    """The link back to the event that seated this table, if any: one look-up per
    registered kind of event for the table's mode, none for the other modes."""
    for lookup in _registry.values():
        if mode in lookup.modes and (link := lookup.find(table_id)) is not None:
            return link
    return None


def table_event_standing(
    *, table_id: int, mode: str, user_id: int
) -> tuple[str, EventStanding] | None:
    """The kind (the registered name) of the event that seated this table and the
    player's standing in it, or None for a table of no event that tells one."""
    for name, lookup in _registry.items():
        if mode not in lookup.modes or lookup.standing is None:
            continue
        if (standing := lookup.standing(table_id, user_id)) is not None:
            return name, standing
    return None

"""The event a table was seated for (an arena, a sit-and-go): a link back to it.

The apps that run events seat ordinary online tables; ``games`` imports none of
them, so each registers a look-up here (``TournamentsConfig.ready``). The table
page asks once when it loads (:func:`table_event_link`); the move path never does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class EventLink:
    """Where the table's players go back to, and the link's words (translated
    when the look-up runs, in the reader's language)."""

    url: str
    label: str


EventLookup = Callable[[int], EventLink | None]


@dataclass(frozen=True)
class _Lookup:
    find: EventLookup
    modes: frozenset[str]


_registry: dict[str, _Lookup] = {}


def event_link_register(
    name: str, find: EventLookup, *, modes: Collection[str]
) -> None:
    """Register ``find(table_id)`` for the tables of ``modes`` under ``name``
    (registering the same name again replaces it, as a reloaded app does). It
    returns the event's link, or None for a table no such event seated."""
    _registry[name] = _Lookup(find=find, modes=frozenset(modes))


def table_event_link(*, table_id: int, mode: str) -> EventLink | None:
    """The link back to the event that seated this table, if any: one look-up per
    registered kind of event for the table's mode, none for the other modes."""
    for lookup in _registry.values():
        if mode in lookup.modes and (link := lookup.find(table_id)) is not None:
            return link
    return None

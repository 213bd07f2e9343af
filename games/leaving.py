"""Who frees a seat of a waiting table: the app that keeps that kind's books.

A stake table's seats are counted and paid for in matchmaking's stake service, a
friend room's in its room service. ``games`` imports neither: each owner registers
one leave handler per table mode in its ``AppConfig.ready`` (the way finish
receivers are registered), and every way a person leaves a waiting table of that
mode goes through it. A mode without a handler (online, practice) keeps the
generic ``seat_leave``.
"""

from __future__ import annotations

from typing import Protocol

from django.contrib.auth.models import AbstractBaseUser


class LeaveHandler(Protocol):
    """Release ``user``'s seat at the waiting table ``table_id`` with its books.

    Raises ``TableError`` with a player-worded message for every refusal (nothing
    changed); code ``not_waiting`` when the table started meanwhile, so the caller
    leaves it as a started table (a forfeit).
    """

    def __call__(self, *, table_id: int, user: AbstractBaseUser) -> None: ...


_handlers: dict[str, LeaveHandler] = {}


def leave_handler_register(*, mode: str, handler: LeaveHandler) -> None:
    """Make ``handler`` the one way to leave a waiting table of ``mode``.

    Registering the same handler again changes nothing; a second owner is refused.
    """
    known = _handlers.get(mode)
    if known is not None and known is not handler:
        raise ValueError(f"mode {mode!r} has a leave handler already")
    _handlers[mode] = handler


def leave_handler(mode: str) -> LeaveHandler | None:
    """The handler owning waiting seats of ``mode``, or None (games frees them)."""
    return _handlers.get(mode)

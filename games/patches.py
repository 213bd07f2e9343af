"""A table's ``state`` frames as ``patch`` frames: what changed since the state a
connection was sent last (docs/protocol.md).

A patch holds the changes of ``realtime.deltas`` between two ``state`` frames of one
connection, both built by ``games.payloads`` for that seat (or for spectators), and
the new frame's events: nothing that the new frame does not hold, so no other seat's
tiles and never the stock. Free of Django, for the benchmarks' clients too.
"""

from __future__ import annotations

from typing import Any

from realtime.deltas import DeltaError, delta, patched

# The parts of a ``state`` frame that a ``patch`` does not diff: its own number,
# and the events, which are new in every frame.
_FRAME_OWN = ("type", "seq", "events")


def _body(frame: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in frame.items() if key not in _FRAME_OWN}


def frame_patch(base: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """The ``patch`` frame that turns ``base``, a ``state`` frame a connection has,
    into the ``state`` frame ``frame`` (both as JSON gives them back)."""
    return {
        "type": "patch",
        "seq": frame["seq"],
        "base": base["seq"],
        "changes": delta(_body(base), _body(frame)),
        "events": frame["events"],
    }


def frame_same(base: dict[str, Any], frame: dict[str, Any]) -> bool:
    """Whether the ``state`` frame ``frame`` shows what ``base`` shows (its patch
    would change nothing), whatever their numbers and events."""
    return _body(base) == _body(frame)


def frame_patched(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The ``state`` frame a ``patch`` stands for, applied to ``base``, the
    ``state`` frame numbered ``patch["base"]``; ``DeltaError`` if it does not fit."""
    if patch.get("base") != base.get("seq"):
        raise DeltaError("a patch applies to the frame it names")
    body = patched(_body(base), patch["changes"])
    return {"type": "state", "seq": patch["seq"], **body, "events": patch["events"]}

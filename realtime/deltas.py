"""How one JSON value differs from another, and applying that difference.

``delta(old, new)`` gives the *changes* that turn the object ``old`` into ``new``;
``patched(old, changes)`` gives ``new`` again as a fresh value (``old`` is not
touched; unchanged parts are shared). A table socket sends these instead of a
whole state frame when little changed (``games.patches.frame_patch``); the page
applies them with ``static/js/table/patch.js``, which reads the same encoding.

The encoding, small for what a move changes (a tile laid at either end of a line,
a tile leaving a hand, an entry added to a history, a counter):

* ``[value]``, a one-element array: the value becomes ``value`` (a key added or
  replaced, an element replaced);
* ``[]``, an empty array: the key is removed (in an object only);
* an object: the value, an object or an array already, changes in place:

  - an object's changes map each changed key to its change;
  - an array's changes either map element indexes (decimal strings) to their
    changes, the length kept, or are one splice, ``{"@": [at, removed,
    *inserted]}``: ``removed`` elements from index ``at`` give way to ``inserted``.

Equal values are compared with Python's ``==``, under which ``true == 1``: a
payload never puts a boolean where the frame before it had a number (the tests
compare every patched frame with the full one as JSON text).
"""

from __future__ import annotations

from typing import Any

# The key of an array's splice.
SPLICE = "@"


class DeltaError(ValueError):
    """Changes that do not fit the value they are applied to."""


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The changes that turn the object ``old`` into ``new`` (``{}`` if equal)."""
    return _object_changes(old, new)


def patched(old: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``old`` with ``changes`` applied, a fresh object; ``DeltaError`` if they do
    not fit it."""
    if not isinstance(old, dict) or not isinstance(changes, dict):
        raise DeltaError("changes apply to an object")
    result = _apply(old, changes)
    assert isinstance(result, dict)  # an object's changes keep it an object
    return result


# --- making changes


def _change(old: Any, new: Any) -> Any:
    """The change from ``old`` to ``new``, two unequal values."""
    if isinstance(old, dict) and isinstance(new, dict):
        changes = _object_changes(old, new)
        # With nothing kept, the new object is shorter than its changes.
        if any(key not in changes for key in new):
            return changes
    elif isinstance(old, list) and isinstance(new, list):
        in_place = _array_changes(old, new)
        if in_place is not None:
            return in_place
    return [new]


def _object_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            changes[key] = [value]
        elif old[key] != value:
            changes[key] = _change(old[key], value)
    for key in old:
        if key not in new:
            changes[key] = []
    return changes


def _array_changes(old: list[Any], new: list[Any]) -> dict[str, Any] | None:
    """An array's changes, or None when the new array is as short to send."""
    n_old, n_new = len(old), len(new)
    # What a move does most (an entry added, a tile laid at either end), compared
    # at C speed before the element by element search below.
    if 0 < n_old < n_new:
        if new[:n_old] == old:
            return {SPLICE: [n_old, 0, *new[n_old:]]}
        if new[n_new - n_old :] == old:
            return {SPLICE: [0, 0, *new[: n_new - n_old]]}
    shortest = min(n_old, n_new)
    head = 0
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[n_old - 1 - tail] == new[n_new - 1 - tail]:
        tail += 1
    if head == 0 and tail == 0 and n_old != n_new:
        return None
    if n_old != n_new:
        return {SPLICE: [head, n_old - head - tail, *new[head : n_new - tail]]}
    changes: dict[str, Any] = {}
    scalars = 0
    for i in range(head, n_old - tail):
        if old[i] != new[i]:
            change = _change(old[i], new[i])
            changes[str(i)] = change
            scalars += not isinstance(new[i], dict | list)
    # Numbers and strings: an index and brackets cost about what the element does.
    if scalars == len(changes) and 2 * scalars >= n_new:
        return None
    return changes


# --- applying changes


def _apply(old: Any, change: Any) -> Any:
    if isinstance(change, list):
        if len(change) != 1:
            raise DeltaError("a replacement holds one value")
        return change[0]
    if not isinstance(change, dict):
        raise DeltaError("a change is an array or an object")
    if isinstance(old, dict):
        return _apply_object(old, change)
    if isinstance(old, list):
        if SPLICE in change:
            return _apply_splice(old, change)
        return _apply_elements(old, change)
    raise DeltaError("changes in place need an object or an array")


def _apply_object(old: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    out = dict(old)
    for key, change in changes.items():
        if change == []:
            if key not in out:
                raise DeltaError("removing a key that is not there")
            del out[key]
        elif isinstance(change, dict):
            if key not in out:
                raise DeltaError("changing a key that is not there")
            out[key] = _apply(out[key], change)
        else:
            out[key] = _apply(None, change)
    return out


def _apply_splice(old: list[Any], changes: dict[str, Any]) -> list[Any]:
    splice = changes[SPLICE]
    if len(changes) != 1 or not isinstance(splice, list) or len(splice) < 2:
        raise DeltaError("a splice is [at, removed, *inserted] alone")
    at, removed = splice[0], splice[1]
    if not (_index(at) and _index(removed) and at + removed <= len(old)):
        raise DeltaError("a splice outside the array")
    return [*old[:at], *splice[2:], *old[at + removed :]]


def _apply_elements(old: list[Any], changes: dict[str, Any]) -> list[Any]:
    out = list(old)
    for key, change in changes.items():
        if not (key.isascii() and key.isdigit()) or int(key) >= len(out):
            raise DeltaError("an element change needs an index in the array")
        if change == []:
            raise DeltaError("an element cannot be removed in place")
        out[int(key)] = _apply(out[int(key)], change)
    return out


def _index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0

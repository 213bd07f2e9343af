"""One vocabulary for a refused request: a code for machines, a message for the player.

Every service refusal (a table, a wallet, a pool, a room, a stake table, a league)
derives from :class:`Refusal`, so views, consumers and tasks answer all of them one
way: the code goes into logs and frames, the message (already translated, with no
ids, keys or reprs) goes to the player, and nothing was changed.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A request refused with nothing changed.

    ``code`` is stable and machine-readable (``not_your_turn``); ``message`` is
    written for the player in their language. ``detail`` is optional text for
    operators and logs (it may name ids and keys, so it is never shown to a player);
    ``str()`` of the exception is the detail when there is one, else the message.
    """

    def __init__(self, code: str, message: str, *, detail: str = "") -> None:
        super().__init__(detail or message)
        self.code = code
        self.message = message
        self.detail = detail

    def as_frame(self, **extra: Any) -> dict[str, Any]:
        """The ``error`` frame a socket sends for this refusal (docs/protocol.md)."""
        return {"type": "error", "code": self.code, "message": self.message, **extra}

    def as_json(self) -> dict[str, str]:
        """The body of a refused JSON request: ``{"code": …, "message": …}``."""
        return {"code": self.code, "message": self.message}

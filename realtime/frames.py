"""Parse one client frame: size limit, JSON, an object with a string ``type``.

Bad frames are answered with an ``error`` frame and logged as a single warning
line; they never raise into the consumer (no traceback in the server log).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger("realtime")


class FrameError(Exception):
    """A client frame that cannot be accepted; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_frame(self, **extra: Any) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, **extra}


def frame_parse(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """Return the decoded frame, or raise ``FrameError`` saying what is wrong."""
    limit = settings.WS_MAX_FRAME_BYTES
    if text_data is None:
        size = len(bytes_data or b"")
        if size > limit:
            raise FrameError("too_large", f"Frames are limited to {limit} bytes.")
        raise FrameError("bad_frame", "Send JSON text frames, not binary ones.")
    if len(text_data) > limit or len(text_data.encode()) > limit:
        raise FrameError("too_large", f"Frames are limited to {limit} bytes.")
    try:
        data = json.loads(text_data)
    except ValueError:
        raise FrameError("bad_json", "That frame is not valid JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise FrameError("bad_frame", 'A frame must be a JSON object with a "type".')
    return data


def frame_warn(where: str, err: FrameError, who: object) -> None:
    """Log a refused frame as one warning line."""
    logger.warning("%s refused a frame from %s: %s", where, who, err.code)

"""Parse one client frame: size limit, JSON, nesting depth, an object with a
string ``type``.

Bad frames are answered with an ``error`` frame and logged as a single warning
line; they never raise into the consumer (no traceback in the server log). Nesting
is limited because ``json.loads`` raises ``RecursionError`` (not ``ValueError``) on
deep arrays, and no frame of the protocol needs more than ``MAX_DEPTH`` levels.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, ngettext

from core.refusals import Refusal

logger = logging.getLogger("realtime")

# The deepest client frame is an ``act`` with ``play_doubles``:
# frame > action > plays > play > tile, five levels.
MAX_DEPTH = 8


class FrameError(Refusal):
    """A client frame that cannot be accepted; ``code`` is machine-readable."""


def frame_parse(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """Return the decoded frame, or raise ``FrameError`` saying what is wrong."""
    limit = settings.WS_MAX_FRAME_BYTES
    if text_data is None:
        size = len(bytes_data or b"")
        if size > limit:
            raise _too_large(limit)
        raise FrameError(
            "bad_frame", gettext("Send JSON text frames, not binary ones.")
        )
    if (
        len(text_data) > limit
        or len(text_data.encode("utf-8", "surrogatepass")) > limit
    ):
        raise _too_large(limit)
    try:
        data = json.loads(text_data)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # JSONDecodeError and UnicodeDecodeError alike
        raise FrameError("bad_json", gettext("That frame is not valid JSON.")) from None
    if text_data.count("[") + text_data.count("{") > MAX_DEPTH and _too_deep_in(data):
        raise _too_deep()
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise FrameError(
            "bad_frame", gettext('A frame must be a JSON object with a "type".')
        )
    return data


def _too_large(limit: int) -> FrameError:
    return FrameError(
        "too_large",
        ngettext(
            "Frames are limited to %(limit)s byte.",
            "Frames are limited to %(limit)s bytes.",
            limit,
        )
        % {"limit": limit},
    )


def _too_deep() -> FrameError:
    return FrameError("bad_frame", gettext("That frame is nested too deeply."))


def _too_deep_in(data: Any) -> bool:
    """Whether ``data`` nests lists or objects more than ``MAX_DEPTH`` levels."""
    level: list[tuple[Any, int]] = [(data, 1)]
    while level:
        value, depth = level.pop()
        if isinstance(value, dict):
            value = list(value.values())
        elif not isinstance(value, list):
            continue
        if depth > MAX_DEPTH:
            return True
        level.extend((v, depth + 1) for v in value if isinstance(v, dict | list))
    return False


def frame_warn(where: str, err: FrameError, who: object) -> None:
    """Log a refused frame as one warning line."""
    logger.warning("%s refused a frame from %s: %s", where, who, err.code)

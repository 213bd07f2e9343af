"""The share link's token and the short code read aloud."""

from __future__ import annotations

import secrets

from django.core.cache import cache

# No 0/O, 1/I/L: a code is read aloud and typed from memory.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31**6, about 887 million codes
TOKEN_BYTES = 18  # 24 URL-safe characters, 144 random bits


def room_token_new() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def room_code_new() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def room_code_normalise(raw: str) -> str:
    """What a person typed, as stored: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in raw.upper() if ch not in " -")


# Wrong codes one player may type per window: guessing 887 million codes at this
# pace is hopeless, while a few typos cost nothing.
CODE_MISSES_ALLOWED = 10
CODE_MISS_WINDOW_SECONDS = 600


def _miss_key(user_id: int) -> str:
    return f"room-code-miss:{user_id}"


def room_code_blocked(*, user_id: int) -> bool:
    """Whether the player typed too many wrong codes lately."""
    return int(cache.get(_miss_key(user_id), 0)) >= CODE_MISSES_ALLOWED


def room_code_miss(*, user_id: int) -> None:
    """Count one wrong code (the window starts at the first miss)."""
    key = _miss_key(user_id)
    if cache.add(key, 1, CODE_MISS_WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, CODE_MISS_WINDOW_SECONDS)

"""The share link's token and the short code read aloud."""

from __future__ import annotations

import secrets

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

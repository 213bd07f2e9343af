"""The free-text filter: insults and slurs in the site's five languages, masked.

Matched as whole words, ignoring case and accents (``puta`` also catches ``PUTA``
and ``putà``), and replaced by asterisks of the same length. A short list of the
common ones: it keeps the ordinary out of friend rooms; reports catch the rest.
"""

from __future__ import annotations

import re
import unicodedata

BLOCKED: dict[str, tuple[str, ...]] = {
    "en": (
        "fuck",
        "fucking",
        "shit",
        "bitch",
        "bastard",
        "asshole",
        "cunt",
        "dick",
        "retard",
        "whore",
        "slut",
    ),
    "es": (
        "puta",
        "puto",
        "mierda",
        "cabron",
        "gilipollas",
        "joder",
        "coño",
        "pendejo",
        "maricon",
        "zorra",
        "imbecil",
    ),
    "ca": (
        "merda",
        "puta",
        "fill de puta",
        "cabro",
        "collons",
        "malparit",
        "gilipolles",
        "imbecil",
    ),
    "pl": (
        "kurwa",
        "chuj",
        "pierdol",
        "pierdolony",
        "jebac",
        "skurwysyn",
        "cipa",
        "dziwka",
        "debil",
        "spierdalaj",
    ),
    "it": (
        "cazzo",
        "stronzo",
        "vaffanculo",
        "puttana",
        "merda",
        "coglione",
        "troia",
        "bastardo",
        "minchia",
    ),
}


def _plain(text: str) -> str:
    """Lower case without accents, one character for one (the mask keeps lengths)."""
    out = []
    for char in text.lower():
        base = unicodedata.normalize("NFD", char)[0]
        out.append(base if len(base) == 1 else char)
    return "".join(out)


_PATTERN = re.compile(
    r"\b(?:"
    + "|".join(
        sorted(
            {re.escape(_plain(w)) for words in BLOCKED.values() for w in words},
            key=len,
            reverse=True,
        )
    )
    + r")\b"
)


def text_clean(text: str) -> str:
    """``text`` with every blocked word masked."""
    plain = _plain(text)
    chars = list(text)
    for found in _PATTERN.finditer(plain):
        for i in range(found.start(), found.end()):
            if not chars[i].isspace():
                chars[i] = "*"
    return "".join(chars)

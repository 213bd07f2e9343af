"""Public names (usernames, clubs): what no player may call themselves or a club.

Two checks, on the name as the word filter folds it (``core.words.text_normal``:
case, accents, invisible characters and look-alike letters), so that ``Admín`` with
a Cyrillic ``а`` or an accented ``í`` reads as the Latin letter it shows:

* impersonating the site's people: a name holding one of ``STAFF_ROOTS`` anywhere
  (``admin``, ``ModeratorBen``, ``official_club``), or one of ``STAFF_WORDS`` as a
  whole word (``mod``, ``the system``);
* the free-text filter's insults and slurs (``core.words``).
"""

from __future__ import annotations

import re

from core.words import text_clean, text_normal

# Taken anywhere inside a name, separators ignored ("a.d.m.i.n", "staff-ana").
STAFF_ROOTS = (
    "admin",
    "moderator",
    "staff",
    "official",
    "support",
    "helpdesk",
    "sysop",
    "dominoesteam",
    "teamdominoes",
)
# Ordinary words that hold a root ("Badminton_Ben" is no admin).
STAFF_INNOCENT = ("badminton", "supportive")
# Taken only as whole words: they sit inside ordinary names ("modesto", "systemic").
STAFF_WORDS = ("mod", "mods", "system", "root", "owner", "dev", "developer")

_SEPARATORS = re.compile(r"[\W_]+")


def name_offends(name: str) -> bool:
    """Whether the word filter masks anything in ``name``."""
    return text_clean(name) != name


def name_impersonates(name: str) -> bool:
    """Whether ``name`` passes itself off as the site's staff."""
    folded = text_normal(name)
    joined = _SEPARATORS.sub("", folded)
    for word in STAFF_INNOCENT:
        joined = joined.replace(word, "|")
    if any(root in joined for root in STAFF_ROOTS):
        return True
    words = set(_SEPARATORS.split(folded))
    return any(word in words for word in STAFF_WORDS)

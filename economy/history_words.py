"""A wallet line's description in the reader's language.

The ledger keeps what happened as a kind (``Transaction.Kind``) plus, for some
kinds, a short memo written by the code that posted it ("online, position 1",
"league week 2026-11-30", a shop item's code). Posted transactions are the audit
record and are never rewritten, so nothing translated is stored: the posting code
writes its memos with the functions below, and the wallet page turns them into
words at display time, in the reader's language. A memo in any other form (an
operator's) is shown as it was written.
"""

from __future__ import annotations

import re
from datetime import date

from django.utils import formats
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from economy.player_messages import ITEM_NAMES, item_name

_REWARD = re.compile(r"^(?P<mode>[a-z]+), position (?P<position>\d+)$")
_LEAGUE = re.compile(r"^league week (?P<week>\S+)$")
_ARENA = re.compile(r"^arena (?P<arena>\d+), rank (?P<rank>\d+)$")
_BATTLE = re.compile(r"^team battle (?P<arena>\d+), club prize$")

MODE_WORDS = {
    "practice": _("practice"),
    "friend": _("friend room"),
    "online": _("online table"),
    "stake": _("stake table"),
}


def reward_memo(*, mode: str, position: int) -> str:
    """The stored memo of a table reward (the audit's form, not for display)."""
    return f"{mode}, position {position}"


def league_memo(*, week: str) -> str:
    """The stored memo of a week-end league reward."""
    return f"league week {week}"


def arena_memo(*, arena_id: int, rank: int) -> str:
    """The stored memo of an arena prize."""
    return f"arena {arena_id}, rank {rank}"


def battle_memo(*, arena_id: int) -> str:
    """The stored memo of a team battle's club prize."""
    return f"team battle {arena_id}, club prize"


def _week_words(week: str) -> str:
    try:
        monday = date.fromisoformat(week)
    except ValueError:
        return week
    return formats.date_format(monday, "SHORT_DATE_FORMAT")


def memo_words(*, kind: str, memo: str) -> str:
    """The memo of a transaction of ``kind`` as the reader says it."""
    if not memo:
        return ""
    if kind == "purchase" and memo in ITEM_NAMES:
        return item_name(memo)
    found = _REWARD.match(memo)
    if found and found["mode"] in MODE_WORDS:
        return gettext("%(mode)s, place %(position)s") % {
            "mode": MODE_WORDS[found["mode"]],
            "position": found["position"],
        }
    found = _ARENA.match(memo)
    if found:
        return gettext("arena %(arena)s, final rank %(rank)s") % {
            "arena": found["arena"],
            "rank": found["rank"],
        }
    found = _BATTLE.match(memo)
    if found:
        return gettext("team battle %(arena)s, the winning club's prize") % {
            "arena": found["arena"]
        }
    found = _LEAGUE.match(memo)
    if found:
        return gettext("league week of %(monday)s") % {
            "monday": _week_words(found["week"])
        }
    return memo

"""Quick chat: a player seated at a table says a set phrase to everyone seated, or,
in a friend room, a line of free text to the friends seated there.

Frames come over the presence socket (``accounts.relay``) and go out to each
recipient's pages (``user.<id>``): ``{"type": "chat", "table": id, "from": name,
"phrase": "well_played"}`` (each page shows the phrase in its own language) or
``{..., "text": "…", "line": id}`` for free text. Refused, with nothing sent:
a player not seated at that table, an unknown phrase, free text outside a friend
room, empty or over-long text, and more than ``CHAT_LINES`` lines in
``CHAT_WINDOW`` seconds.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bots import bot_labelled
from accounts.groups import user_group
from chat.errors import ChatError
from chat.models import ChatLine
from core.words import text_clean, text_normal
from friends.selectors import friend_ids
from games.models import Seat, Table
from realtime import outbox

PHRASES = ("good_luck", "well_played", "thanks", "oops", "your_turn", "rematch")
TEXT_MAX = 200
CHAT_LINES = 5
CHAT_WINDOW = 10  # seconds


def chat_rate(user_id: int) -> None:
    """Count a line the player says; refuse past ``CHAT_LINES`` in ``CHAT_WINDOW``
    seconds (tables, rooms and clubs together)."""
    key = f"chat:rate:{user_id}"
    cache.add(key, 0, timeout=CHAT_WINDOW)
    try:
        said = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=CHAT_WINDOW)
        said = 1
    if said > CHAT_LINES:
        raise ChatError("rate", _("You are chatting too fast; wait a few seconds."))


def _send(recipients: list[int], frame: dict[str, Any]) -> None:
    outbox.notify(
        [(user_group(uid), {"type": "user.push", "frame": frame}) for uid in recipients]
    )


def chat_text(raw: Any) -> str:
    """A typed line with its runs of spaces made one; refused when empty or longer
    than ``TEXT_MAX``."""
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not text:
        raise ChatError("empty", _("Type a message first."))
    if len(text) > TEXT_MAX:
        raise ChatError(
            "too_long",
            ngettext(
                "A message is at most %(n)s character.",
                "A message is at most %(n)s characters.",
                TEXT_MAX,
            )
            % {"n": TEXT_MAX},
        )
    return text


def chat_send(
    *,
    user_id: int,
    name: str,
    table_id: Any,
    phrase: Any = None,
    text: Any = None,
) -> None:
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise ChatError("bad_frame", _("Say which table the message is for."))
    table = Table.objects.filter(pk=table_id).only("mode", "status").first()
    seated = list(
        Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )
    if table is None or user_id not in seated:
        raise ChatError("not_seated", _("You can chat only at a table where you sit."))
    name = bot_labelled(name=name, user_id=user_id)  # a bot is always labelled
    frame: dict[str, Any] = {"type": "chat", "table": table_id, "from": name}
    if phrase is not None:
        if phrase not in PHRASES:
            raise ChatError("bad_phrase", _("That is not one of the chat's phrases."))
        chat_rate(user_id)
        _send(seated, {**frame, "phrase": phrase})
        return
    if table.mode != Table.Mode.FRIEND:
        raise ChatError(
            "no_text", _("Typed messages are only for friend rooms, between friends.")
        )
    text = chat_text(text)
    friends = set(friend_ids(user_id))
    recipients = [uid for uid in seated if uid == user_id or uid in friends]
    if len(recipients) < 2:
        raise ChatError(
            "no_friends", _("Nobody at this table is your friend: use the phrases.")
        )
    chat_rate(user_id)
    line = ChatLine.objects.create(
        sender_id=user_id, table_id=table_id, text=text, normal=text_normal(text)
    )
    _send(recipients, {**frame, "text": text_clean(text), "line": line.pk})


def chat_frame(user_id: int, name: str, frame: dict[str, Any]) -> dict[str, Any] | None:
    """The presence socket's handler of ``chat`` frames: an error frame, or None."""
    try:
        chat_send(
            user_id=user_id,
            name=name,
            table_id=frame.get("table"),
            phrase=frame.get("phrase"),
            text=frame.get("text"),
        )
    except ChatError as err:
        return err.as_frame()
    return None


def chat_report(*, line_id: int, user: Any) -> None:
    """``user`` reports a line they were shown (a friend seated at its table)."""
    from chat.models import ChatReport

    line = ChatLine.objects.filter(pk=line_id).first()
    shown = (
        line is not None
        and line.sender_id != user.pk
        and line.sender_id in friend_ids(user.pk)
        and Seat.objects.filter(table_id=line.table_id, user=user).exists()
    )
    if line is None or not shown:
        raise ChatError("unknown", _("There is no such message to report."))
    ChatReport.objects.get_or_create(line=line, reporter=user)

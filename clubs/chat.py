"""A club's chat: its members say the table chat's set phrases or type a line, to
every member online.

Frames come over the presence socket (``accounts.relay``, type ``club_chat``) and go
out to each member's pages (``user.<id>``): ``{"type": "club_chat", "club": id,
"from": name, "line": id, "phrase": "thanks"}`` or ``{..., "text": "…"}``, the text
with the word filter's masks. Members who blocked the sender are not sent their
lines (nor shown them in the history); in the browser a member may mute anyone, as
at a table. Refused, with nothing sent or kept: a player not in the club, an
unknown phrase, an empty or over-long line and the chat's shared rate limit.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from accounts.groups import user_group
from accounts.presence import user_online
from chat.errors import ChatError
from chat.services import PHRASES, chat_rate, chat_text
from clubs.errors import ClubError
from clubs.models import ClubLine, ClubLineReport, Member
from core.words import text_clean, text_normal
from matchmaking.pools.models import Block
from realtime import outbox

HISTORY = 30


def line_frame(line: ClubLine, sender_name: str) -> dict[str, Any]:
    """What a reader is shown of a kept line (live or in the history)."""
    frame: dict[str, Any] = {
        "type": "club_chat",
        "club": line.club_id,
        "from": sender_name,
        "line": line.pk,
    }
    if line.phrase:
        frame["phrase"] = line.phrase
    else:
        frame["text"] = text_clean(line.text)
    return frame


def _blockers_of(sender_id: int) -> set[int]:
    return set(
        Block.objects.filter(blocked_id=sender_id).values_list("blocker_id", flat=True)
    )


def club_chat_send(
    *, user_id: int, name: str, club_id: Any, phrase: Any = None, text: Any = None
) -> ClubLine:
    if not isinstance(club_id, int) or isinstance(club_id, bool):
        raise ClubError("bad_frame", _("Say which club the message is for."))
    members = set(
        Member.objects.filter(club_id=club_id).values_list("user_id", flat=True)
    )
    if user_id not in members:
        raise ClubError("not_member", _("You can chat only in a club you belong to."))
    if phrase is not None:
        if phrase not in PHRASES:
            raise ClubError("bad_phrase", _("That is not one of the chat's phrases."))
        said = {"phrase": phrase}
    else:
        try:
            typed = chat_text(text)
        except ChatError as err:
            raise ClubError(err.code, err.message) from None
        said = {"text": typed, "normal": text_normal(typed)}
    try:
        chat_rate(user_id)
    except ChatError as err:
        raise ClubError(err.code, err.message) from None
    line = ClubLine.objects.create(club_id=club_id, sender_id=user_id, **said)
    frame = line_frame(line, name)
    readers = members - _blockers_of(user_id)
    outbox.notify(
        [
            (user_group(uid), {"type": "user.push", "frame": frame})
            for uid in sorted(readers)
            if uid == user_id or user_online(uid)
        ]
    )
    return line


def club_chat_frame(
    user_id: int, name: str, frame: dict[str, Any]
) -> dict[str, Any] | None:
    """The presence socket's handler of ``club_chat`` frames: an error, or None."""
    try:
        club_chat_send(
            user_id=user_id,
            name=name,
            club_id=frame.get("club"),
            phrase=frame.get("phrase"),
            text=frame.get("text"),
        )
    except ClubError as err:
        return err.as_frame()
    return None


def club_chat_history(*, club_id: int, reader_id: int) -> list[dict[str, Any]]:
    """The last ``HISTORY`` lines, oldest first, without those of players the
    reader blocked."""
    blocked = set(
        Block.objects.filter(blocker_id=reader_id).values_list("blocked_id", flat=True)
    )
    lines = (
        ClubLine.objects.filter(club_id=club_id)
        .exclude(sender_id__in=blocked)
        .select_related("sender")
        .order_by("-id")[:HISTORY]
    )
    return [line_frame(line, line.sender.get_username()) for line in reversed(lines)]


def club_line_report(*, line_id: int, user: Any) -> None:
    """A member reports a line of their club's chat said by someone else."""
    line = ClubLine.objects.filter(pk=line_id).first()
    shown = (
        line is not None
        and line.sender_id != user.pk
        and Member.objects.filter(club_id=line.club_id, user=user).exists()
    )
    if line is None or not shown:
        raise ClubError("unknown", _("There is no such message to report."))
    ClubLineReport.objects.get_or_create(line=line, reporter=user)

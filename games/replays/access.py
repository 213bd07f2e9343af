"""Who may watch a table's replay.

Once a table has ended: an online or stake table, anyone (signed in or not); a
friend room, whoever could see the room's table (its members and invitees, or
anyone signed in if its host lets people watch); a practice table, whoever may see
it (its player: ``games.watchers``), and anyone holding the share link its player
copies from the replay page. Nobody watches the replay of a table still in play:
it would show every hand.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.http import Http404
from django.utils.translation import gettext

from games.models import Table
from games.watchers import table_may_see

ENDED = (Table.Status.FINISHED, Table.Status.CANCELLED)
PUBLIC_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
_SALT = "games.replays.share"


class ReplayNotYet(Http404):
    """The table is still in play (said only to someone who may watch it live)."""


def replay_share_token(table: Table) -> str:
    """The token of a practice table's share link: signed, so it names this table
    and no other, and needs no row to revoke (a practice replay holds no secret
    once the table has ended)."""
    return signing.dumps(table.pk, salt=_SALT, compress=True)


def _share_valid(table: Table, token: str | None) -> bool:
    if not token:
        return False
    try:
        return bool(signing.loads(token, salt=_SALT) == table.pk)
    except signing.BadSignature:
        return False


def replay_may_see(*, table: Table, user: Any, share: str | None = None) -> bool:
    """Whether ``user`` (possibly anonymous) may watch the replay of ``table``."""
    if table.status not in ENDED:
        return False
    if table.mode in PUBLIC_MODES:
        return True
    if table.mode == Table.Mode.PRACTICE and _share_valid(table, share):
        return True
    signed_in = getattr(user, "is_authenticated", False)
    return bool(signed_in and table_may_see(table=table, user=user))


def replay_table_or_404(*, table_id: int, user: Any, share: str | None = None) -> Table:
    """The ended table whose replay ``user`` may watch; otherwise a 404 that says
    whether the game is still on (to someone who may see it) or nothing at all."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("There is no such table."))
    if table.status not in ENDED and table_may_see(table=table, user=user):
        raise ReplayNotYet(gettext("The replay opens when the game has ended."))
    if not replay_may_see(table=table, user=user, share=share):
        raise Http404(gettext("There is no such table."))
    return table

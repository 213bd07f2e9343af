"""Who may read a hand's review, and when: the replay's rule.

A review shows every tile of its hand, so it opens when the replay does
(``games.replays.access``): once the table has ended, to whoever may watch its
replay. A practice table is the exception: its player may read the review of
each hand as soon as that hand is over, while the match goes on (nobody else
plays there, nothing is at stake, and nobody else sees the table:
``games.watchers``). Never while a friend, online or stake table
is in play: the review says what the others held and how they play.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext

from games.models import Table
from games.replays.access import ENDED, replay_may_see
from games.reviews.steps import hands_finished
from games.watchers import table_may_see


class ReviewNotYet(Http404):
    """The table is still in play (said only to someone who may watch it live)."""


def review_may_see(*, table: Table, user: Any, share: str | None = None) -> bool:
    """Whether ``user`` may read the reviews of ``table``'s finished hands."""
    if table.status in ENDED:
        return replay_may_see(table=table, user=user, share=share)
    if table.mode != Table.Mode.PRACTICE:
        return False
    return table_may_see(table=table, user=user)


def review_table_or_404(
    *, table_id: int, hand: int, user: Any, share: str | None = None
) -> Table:
    """The table whose hand ``hand`` ``user`` may read the review of; otherwise a
    404 that says why to someone who may see the table (still in play, or no
    such finished hand), and nothing at all to anyone else."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise Http404(gettext("There is no such table."))
    if not review_may_see(table=table, user=user, share=share):
        if table.status not in ENDED and table_may_see(table=table, user=user):
            raise ReviewNotYet(
                gettext("The review of a hand opens when the match has ended.")
            )
        raise Http404(gettext("There is no such table."))
    if not 1 <= hand <= hands_finished(table=table):
        raise Http404(gettext("This hand has not been played to its end."))
    return table

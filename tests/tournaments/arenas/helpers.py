"""Helpers of the arena tests: a finished arena table announced as ``games`` does."""

from __future__ import annotations

from games.finish import FinishNotice
from games.models import Seat, Table
from games.signals import SeatResult
from tournaments.arenas.models import ArenaGame, ArenaPlayer
from tournaments.arenas.services import arena_on_table_finished


def result(position, user_id, place, team=None, forfeited=False, unpaid=""):
    return SeatResult(
        position=position,
        user_id=user_id,
        bot_level="",
        simulated=False,
        team=team,
        place=place,
        score=0,
        forfeited=forfeited,
        unpaid=unpaid,
    )


def finish(table_id, places, *, forfeited=(), standin=()):
    """Announce a 2-seat arena table's result (``places`` by user, in seat order).

    The seats of ``standin`` were played mostly by the stand-in, those of
    ``forfeited`` were left: their rows say so, as ``games.finish`` writes them.
    """
    game = ArenaGame.objects.get(table_id=table_id)
    Table.objects.filter(pk=table_id).update(status=Table.Status.FINISHED)
    seats = Seat.objects.filter(table_id=table_id)
    seats.filter(user_id__in=list(standin)).update(unpaid="standin")
    seats.filter(user_id__in=list(forfeited)).update(forfeited=True)
    arena_on_table_finished(
        FinishNotice(
            table_id=table_id,
            mode="online",
            variant="draw",
            simulated=False,
            results=[
                result(
                    i,
                    u,
                    places[u],
                    forfeited=u in forfeited,
                    unpaid="standin" if u in standin else "",
                )
                for i, u in enumerate(game.user_ids)
            ],
        )
    )


def player(arena, user):
    return ArenaPlayer.objects.get(arena=arena, user=user)

"""A practice game played offline, uploaded by its player once back online.

The browser plays the game on the engine itself (``games.offline``, in a Web Worker
under Pyodide) and sends it to ``POST /play/offline/results/`` as JSON: ``{"id",
"variant", "options", "levels", "seed", "actions", "finished_at"}``. The server
trusts none of it: :func:`upload_parse` limits the size and the nesting,
``games.offline.replay`` plays every action through the engine (and checks the
easy and medium computers' moves against their bots), and only a match played to
its end is recorded, as a finished practice table with its whole move log
(:func:`offline_game_record`): it counts in the player's practice record under its
strongest computer, as any practice table does, and opens in the history, the
replay and the review. Practice pays nothing (RULES.md §5): no finish consequence
applies to a practice table, online or offline.

A game counts once. A player's browser gives each game an id (unique per player),
and the deal's secret, 32 random bytes drawn by that browser, names the game
whoever sends it (unique over all games); both are constraints of
``OfflineGame``, so two uploads of one game racing each other record it once.
Every refusal is an :class:`UploadError` in words, with nothing written.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from core.refusals import Refusal
from games import engine, offline
from games.engine.fair import chain_link
from games.finish import table_finish
from games.models import OfflineGame, Table, TableEvent
from games.services.creating import practice_seats_create
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED

# The deepest upload is an action playing doubles: upload > actions > [seat,
# action] > action > plays > play > tile, seven levels.
MAX_DEPTH = 8


class UploadError(Refusal):
    """An uploaded offline game that is not recorded; nothing was changed."""


RATE_WINDOW = 3600  # seconds: ``GAMES_OFFLINE_UPLOADS_PER_HOUR`` per window


def upload_rate_take(*, user_id: int, now: float | None = None) -> None:
    """Count one upload that will be replayed for ``user_id``; ``UploadError``
    past ``GAMES_OFFLINE_UPLOADS_PER_HOUR`` in this hour. A replay is some
    milliseconds of CPU per hundred moves that any signed-in player can ask for,
    refused or not, so each player has an hourly allowance (counted in the cache,
    shared by every process; a cache that fails lets the upload through)."""
    limit: int = settings.GAMES_OFFLINE_UPLOADS_PER_HOUR
    if limit <= 0:
        return
    window = int((now if now is not None else time.time()) // RATE_WINDOW)
    key = f"offline:uploads:{user_id}:{window}"
    try:
        cache.add(key, 0, timeout=RATE_WINDOW + 60)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=RATE_WINDOW + 60)
            count = 1
    except Exception:  # see the docstring
        return
    if count > limit:
        raise UploadError(
            "rate",
            gettext("Many games were sent this hour: the others will be sent later."),
        )


def upload_limit() -> int:
    """The largest upload accepted, in bytes (``GAMES_OFFLINE_UPLOAD_MAX_BYTES``)."""
    return int(settings.GAMES_OFFLINE_UPLOAD_MAX_BYTES)


def too_large() -> UploadError:
    limit_kb = upload_limit() // 1024
    return UploadError(
        "too_large",
        gettext("This game is too long to send: uploads are limited to %(size)s KB.")
        % {"size": limit_kb},
    )


def upload_parse(*, body: bytes) -> dict[str, Any]:
    """The decoded upload, or ``UploadError``: over the size limit, not JSON, nested
    deeper than any game needs, or not a JSON object."""
    if len(body) > upload_limit():
        raise too_large()
    unreadable = UploadError(
        "bad_json", gettext("This game could not be read: it is not valid JSON.")
    )
    try:
        data = json.loads(body)
    except RecursionError:
        raise unreadable from None
    except ValueError:  # JSONDecodeError and UnicodeDecodeError alike
        raise unreadable from None
    if _deeper_than(data, MAX_DEPTH) or not isinstance(data, dict):
        raise unreadable
    return data


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists or objects more than ``limit`` levels."""
    level: list[Any] = [data]
    for _depth in range(limit):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return any(isinstance(item, dict | list) for item in level)


def _client_id(data: Mapping[str, Any]) -> uuid.UUID:
    raw = data.get("id")
    try:
        if not isinstance(raw, str) or len(raw) > 64:
            raise ValueError
        return uuid.UUID(raw)
    except ValueError:
        raise UploadError(
            "bad_id", gettext("This game has no valid id: it cannot be recorded.")
        ) from None


def _finished_at(data: Mapping[str, Any], now: datetime) -> datetime:
    """When the game ended by the player's device, no later than ``now``."""
    raw = data.get("finished_at")
    try:
        when = parse_datetime(raw) if isinstance(raw, str) and len(raw) < 64 else None
    except ValueError:
        when = None
    if when is None or timezone.is_naive(when):
        raise UploadError(
            "bad_time",
            gettext("This game has no valid end time: it cannot be recorded."),
        )
    # A device whose clock runs ahead does not date a game in the future.
    return min(when, now)


def _already(*, user: User, client_id: uuid.UUID, seed: Any) -> UploadError | None:
    """The refusal of a game already recorded (under this id for this player, or
    with this deal for anyone), or None."""
    mine = OfflineGame.objects.filter(user=user, client_id=client_id)
    same_deal = OfflineGame.objects.filter(seed=seed) if isinstance(seed, str) else None
    if mine.exists() or (
        same_deal is not None and same_deal.filter(user=user).exists()
    ):
        return UploadError(
            "duplicate", gettext("This game is already in your practice record.")
        )
    if same_deal is not None and same_deal.exists():
        return UploadError(
            "not_yours", gettext("This game was already recorded for another player.")
        )
    return None


def offline_game_record(*, user: User, data: Mapping[str, Any]) -> Table:
    """Replay the uploaded game ``data`` (``upload_parse``'s) and record it as a
    finished practice table of ``user``'s; ``UploadError`` if it is refused.

    The replay runs outside any transaction (a long match is thousands of engine
    steps); the writes then go in one, and a duplicate that raced this upload past
    the first check is caught by the constraints, which roll everything back."""
    client_id = _client_id(data)
    finished = _finished_at(data, timezone.now())
    seed = data.get("seed")
    refused = _already(user=user, client_id=client_id, seed=seed)
    if refused is not None:
        raise refused
    upload_rate_take(user_id=user.pk)
    try:
        replayed = offline.replay(data)
    except offline.OfflineError as err:
        raise UploadError(
            "illegal",
            gettext("This game could not be recorded: %(reason)s")
            % {"reason": err.message.render(gettext)},
        ) from None
    log = _move_log(replayed)
    try:
        with transaction.atomic():
            table = _table_write(user=user, replayed=replayed, log=log, at=finished)
            OfflineGame.objects.create(
                table=table,
                user=user,
                client_id=client_id,
                seed=replayed.seed,
                finished_at=finished,
            )
    except IntegrityError:
        raise _already(user=user, client_id=client_id, seed=replayed.seed) or (
            UploadError(
                "duplicate", gettext("This game is already in your practice record.")
            )
        ) from None
    return table


# One log entry: (seat or None, actor, action or None, events).
Entry = tuple[int | None, str, dict[str, Any] | None, list[dict[str, Any]]]


def _move_log(replayed: offline.Replayed) -> list[Entry]:
    """The table's log as a live practice table writes it: the deal by the server,
    then each action, by the player or a computer, with the events it made."""
    log: list[Entry] = [(None, "server", None, list(replayed.dealt))]
    for seat, action, events in replayed.steps:
        log.append((seat, "player" if seat == 0 else "bot", action, list(events)))
    return log


def _fair_of(state: engine.State) -> dict[str, Any]:
    """``Table.fair`` of an offline game: its chains, their commitments, the empty
    client seeds, and the table id its deal names (0: it was dealt before any
    table existed; ``games.fairness.fair_deal_of`` reads it)."""
    deal = state.fair
    if deal is None:  # every offline game is dealt by the fair deal
        raise ValueError("an offline game without a fair deal")
    return {
        "chains": [top.hex() for top in deal.chains],
        "commitments": [chain_link(top, 0).hex() for top in deal.chains],
        "seeds": list(deal.seeds),
        "table_id": deal.table_id,
    }


def _table_write(
    *, user: User, replayed: offline.Replayed, log: list[Entry], at: datetime
) -> Table:
    """The finished practice table of a replayed game, its seats and its log.
    Call inside a transaction."""
    opts = replayed.options
    table = Table.objects.create(
        mode=Table.Mode.PRACTICE,
        status=Table.Status.PLAYING,
        variant=opts.variant,
        options=opts.to_dict(),
        host=user,
        seed=replayed.state.seed,
        fair=_fair_of(replayed.state),
        state=engine.to_json(replayed.state),
        seq=len(log),
        clock_seconds=None,
        bot_delay_ms=BOT_SPEEDS[DEFAULT_SPEED],
        hand_pause_seconds=0,
        started_at=at,
    )
    seats = practice_seats_create(table, opts, user, replayed.levels)
    TableEvent.objects.bulk_create(
        [
            TableEvent(
                table=table,
                seq=seq,
                seat=seat,
                actor=actor,
                action=action,
                events=events,
            )
            for seq, (seat, actor, action, events) in enumerate(log, start=1)
        ],
        batch_size=500,
    )
    table_finish(table=table, seats=seats, state=replayed.state)
    table.finished_at = at
    table.save(update_fields=["status", "finished_at"])
    return table

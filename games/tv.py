"""TV: the best live game of a channel, shown to anyone, as spectators see it.

A channel is ``all`` or one variant that has online pools. Its game is the live
online or stake table whose people (computer and simulated seats, and programs
playing bot accounts, do not count) have the highest average displayed rating in
the table's variant; a table with nobody on it is never on TV, nor a friend room's,
a practice or an offline game. Ties go to the table with more people, then to the
one that started last.

**The ratings.** They are ``matchmaking``'s, which ``games`` may not import
(DESIGN.md "Who may import whom"); ``matchmaking`` registers its displayed-rating
function and its pools' variants here at ``ready()``, as it registers its watch
check and finish consequences. A registry rather than a rating copied onto the
seats: a copy taken when matchmaking seats a player would miss every table seated
another way (arenas, stake tables) and go stale within a match, while the registry
asks for the figures the leaderboard shows now. Without a registration (``games``
alone) everyone rates the same and every variant is a channel.

**What a viewer receives.** Exactly a spectator's ``state`` frame
(``games.payloads.spectator_frame`` of ``games.spectators.watch_state_of``): the
game behind by a move (a hand on stake tables), no hand but the ones already shown,
no turn clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.names import variant_title
from games.selectors import table_frame

# Displayed ratings of people in a variant: (variant, user ids) -> {user id: rating}.
# A person missing from the answer counts as unrated (``UNRATED``).
RatingsOf = Callable[[str, Sequence[int]], Mapping[int, float]]
VariantsOf = Callable[[], Sequence[str]]

ALL = "all"
TV_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
UNRATED = 0.0
# How long after its end a viewer still watching a game may be sent its last state.
ENDED_SHOWN_SECONDS = 60


@dataclass(slots=True)
class _Source:
    ratings: RatingsOf | None = None
    variants: VariantsOf | None = None


_source = _Source()


def tv_ratings_register(*, ratings: RatingsOf, variants: VariantsOf) -> None:
    """Let ``ratings`` rate the people on TV, and ``variants`` name the variant
    channels (the variants that have pools)."""
    _source.ratings = ratings
    _source.variants = variants


def tv_channels() -> list[str]:
    """The variant channels, in the engine's order of variants."""
    known = list(engine.VARIANTS)
    if _source.variants is None:
        return known
    pooled = set(_source.variants())
    return [variant for variant in known if variant in pooled]


def tv_channel_valid(channel: str) -> bool:
    return channel == ALL or channel in tv_channels()


def tv_channel_title(channel: str) -> str:
    """The channel's name: a variant's title; the ``all`` channel has none."""
    return "" if channel == ALL else variant_title(channel)


@dataclass(frozen=True, slots=True)
class _Candidate:
    table_id: int
    variant: str
    people: tuple[int, ...]
    started: float


def _candidates(channel: str) -> list[_Candidate]:
    """The live tables of ``channel`` that may be on TV, with their people."""
    seats = Seat.objects.filter(
        table__mode__in=TV_MODES,
        table__status=Table.Status.PLAYING,
        table__state__isnull=False,  # dealt: a fair table's seeds are in
        user__isnull=False,
        simulated=False,
        program=False,
    )
    if channel != ALL:
        seats = seats.filter(table__variant=channel)
    people: dict[int, list[int]] = defaultdict(list)
    facts: dict[int, tuple[str, float]] = {}
    for table_id, variant, started, user_id in seats.values_list(
        "table_id", "table__variant", "table__started_at", "user_id"
    ):
        people[table_id].append(user_id)
        facts[table_id] = (variant, started.timestamp() if started else 0.0)
    return [
        _Candidate(
            table_id=table_id,
            variant=facts[table_id][0],
            people=tuple(users),
            started=facts[table_id][1],
        )
        for table_id, users in people.items()
    ]


def _ratings(candidates: Sequence[_Candidate]) -> dict[tuple[str, int], float]:
    """Every candidate person's displayed rating in their table's variant."""
    if _source.ratings is None:
        return {}
    wanted: dict[str, set[int]] = defaultdict(set)
    for candidate in candidates:
        wanted[candidate.variant].update(candidate.people)
    found: dict[tuple[str, int], float] = {}
    for variant, users in wanted.items():
        for user_id, rating in _source.ratings(variant, sorted(users)).items():
            found[(variant, user_id)] = float(rating)
    return found


def tv_table_id(*, channel: str) -> int | None:
    """The table ``channel`` shows now: its best live game, or None."""
    candidates = _candidates(channel)
    if not candidates:
        return None
    ratings = _ratings(candidates)

    def rank(c: _Candidate) -> tuple[float, int, float, int]:
        average = sum(ratings.get((c.variant, u), UNRATED) for u in c.people) / len(
            c.people
        )
        return (average, len(c.people), c.started, c.table_id)

    return max(candidates, key=rank).table_id


def tv_pick(*, channel: str, fresh: bool = False) -> int | None:
    """``tv_table_id``, kept ``settings.TV_PICK_SECONDS`` in the shared cache, so
    that the viewers of a channel who ask within that time are given the same game
    without ranking every live table again; ``fresh`` ranks again (the kept pick
    ended meanwhile)."""
    seconds = settings.TV_PICK_SECONDS
    if seconds <= 0:
        return tv_table_id(channel=channel)
    key = f"tv:pick:{channel}"
    if not fresh:
        kept = cache.get(key)
        if kept is not None:
            return int(kept) or None  # 0: nothing was live
    picked = tv_table_id(channel=channel)
    cache.set(key, picked or 0, seconds)
    return picked


def tv_still_shown(*, channel: str, table_id: int) -> bool:
    """Whether a viewer of ``channel`` who watches table ``table_id`` keeps it: a
    table TV shows (an online or stake table of the channel with a person on it)
    still being played, or ended less than ``ENDED_SHOWN_SECONDS`` ago (so its
    viewers see how it ended before the channel moves on)."""
    seats = Seat.objects.filter(
        table_id=table_id,
        table__mode__in=TV_MODES,
        user__isnull=False,
        simulated=False,
        program=False,
    ).filter(
        Q(table__status=Table.Status.PLAYING)
        | Q(
            table__status=Table.Status.FINISHED,
            table__finished_at__gte=timezone.now()
            - timedelta(seconds=ENDED_SHOWN_SECONDS),
        )
    )
    if channel != ALL:
        seats = seats.filter(table__variant=channel)
    return seats.exists()


def tv_now(*, channel: str, watching: int | None = None) -> dict[str, Any]:
    """What ``channel`` shows now, for its page's script: the table it watches
    (``watching``) while that one may still be shown, with ``live`` false once its
    game has ended; otherwise the channel's best live game; ``table`` None when no
    game is live. ``frame`` is the spectators' ``state`` frame of the table."""
    if watching is not None and tv_still_shown(channel=channel, table_id=watching):
        table_id: int | None = watching
        frame = _spectated(table_id)
    else:
        table_id = tv_pick(channel=channel)
        frame = _spectated(table_id)
        if frame is not None and not _live(frame):  # the kept pick ended meanwhile
            table_id = tv_pick(channel=channel, fresh=True)
            frame = _spectated(table_id)
    if table_id is None or frame is None:
        return {"channel": channel, "table": None, "live": False, "frame": None}
    variant = frame["table"]["variant"]
    spec = engine.VARIANTS.get(variant)
    return {
        "channel": channel,
        "table": table_id,
        "live": _live(frame),
        # What the table page's drawing needs to know of the table (its config).
        "config": {
            "id": table_id,
            "seat": None,
            "variant": variant,
            "title": variant_title(variant),
            "scoring": spec.scoring if spec else "",
            "stock_drawn": spec is not None and spec.stock != engine.STOCK_NONE,
            "practice": False,
            "stake": frame["table"]["mode"] == Table.Mode.STAKE,
        },
        "frame": frame,
    }


def _spectated(table_id: int | None) -> dict[str, Any] | None:
    """The spectators' frame of ``table_id``, or None without a table."""
    return None if table_id is None else table_frame(table_id=table_id, position=None)


def _live(frame: Mapping[str, Any]) -> bool:
    return bool(frame["table"]["status"] == Table.Status.PLAYING)

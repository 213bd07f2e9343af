"""The offline game itself: its deal, the checks of its settings, the person's and
the computers' moves (see the package's docstring)."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games import bots, engine
from games.engine import Action, Options, State
from games.engine.fair import FairDeal
from games.engine.messages import Text, gettext_noop, text

SEED_HEX = 64
# A whole match stays far below these (a long Draw match on the double-twelve set
# to 250 is a few thousand actions); a log beyond them is refused unread.
MAX_ACTIONS = 20_000
MAX_HANDS = 1_000
# The levels whose move ``replay`` recomputes: deterministic on any machine and
# cheap. ``hard`` searches as far as the browser's machine speed allows.
CHECKED_LEVELS = ("easy", "medium")
# Computer players that call Muggins out of turn (``easy`` never does), as at a
# live table (games.timers).
MUGGINS_CALLERS = ("medium", "hard")
PERSON = 0
TABLE_ID = 0

_SEED = re.compile(r"[0-9a-f]{64}")


class OfflineError(ValueError):
    """A refused offline game or action; ``message`` is the ``Text`` a player reads."""

    def __init__(self, message: Text) -> None:
        self.message = message
        super().__init__(message.render())


def refuse(template: str, **params: Any) -> OfflineError:
    return OfflineError(text(template, **params))


@dataclass(frozen=True)
class Game:
    """One offline match at one moment (see the package's docstring)."""

    variant: str
    options: Options
    levels: tuple[str, ...]
    seed: str
    state: State
    log: tuple[tuple[int, dict[str, Any]], ...] = ()
    # Seats that let the Muggins window open at ``seq`` pass: (seq, seat) pairs.
    declined: frozenset[tuple[int, int]] = field(default_factory=frozenset)

    @property
    def seq(self) -> int:
        return len(self.log)

    def level_of(self, seat: int) -> str | None:
        """The computer level of ``seat``; None for the person's seat."""
        return None if seat == PERSON else self.levels[seat - 1]


# ------------------------------------------------------------------ the deal


def seed_new() -> str:
    """A fresh deal secret, as ``SEED_HEX`` hex digits."""
    return secrets.token_bytes(SEED_HEX // 2).hex()


def chain_top(seed: str, chain: int) -> bytes:
    """The secret top of hash chain ``chain`` (0-based) of an offline game."""
    top = bytes.fromhex(seed)
    if chain == 0:
        return top
    return hmac.new(
        top, f"offline-chain|{chain}".encode("ascii"), hashlib.sha256
    ).digest()


def fair_of(seed: str, seats: int) -> FairDeal:
    """The fair deal of an offline game: table 0, empty client seeds."""
    return FairDeal(
        table_id=TABLE_ID, chains=(chain_top(seed, 0),), seeds=("",) * seats
    )


def _chain_ahead(state: State, seed: str) -> State:
    """``state`` with the next hash chain once the next hand would need it."""
    assert state.fair is not None
    if state.fair.has_key(state.hand_no + 1):
        return state
    return engine.fair_extend(state, chain_top(seed, len(state.fair.chains)))


# ------------------------------------------------------------------ checks


def seed_check(seed: Any) -> str:
    if not isinstance(seed, str) or not _SEED.fullmatch(seed):
        raise refuse(gettext_noop("The game's seed is not valid."))
    return seed


def options_check(variant: Any, options: Any) -> Options:
    if not isinstance(variant, str) or variant not in engine.VARIANTS:
        raise refuse(gettext_noop("There is no such variant."))
    if not isinstance(options, Mapping):
        raise refuse(gettext_noop("The game's options are not valid."))
    rest = dict(options)
    if rest.pop("variant", variant) != variant:
        raise refuse(gettext_noop("The game's options are not valid."))
    try:
        return engine.options_for(variant, **rest)
    except engine.InvalidOptions as exc:
        raise OfflineError(exc.text) from None
    except TypeError:  # an option the variant does not have
        raise refuse(gettext_noop("The game's options are not valid.")) from None


def levels_check(levels: Any, options: Options) -> tuple[str, ...]:
    if (
        isinstance(levels, (str, bytes))
        or not isinstance(levels, Sequence)
        or len(levels) != options.seats - 1
        or any(level not in bots.LEVELS for level in levels)
    ):
        raise refuse(
            gettext_noop(
                "Choose a level (easy, medium or hard) for each computer player."
            )
        )
    return tuple(levels)


# ------------------------------------------------------------------ the game


def new_game(
    variant: str, options: Mapping[str, Any], levels: Sequence[str], seed: str
) -> Game:
    """A new offline match, hand 1 dealt (see the package's docstring)."""
    opts = options_check(variant, options)
    seat_levels = levels_check(levels, opts)
    secret = seed_check(seed)
    state = engine.new_match(opts, 0, fair=fair_of(secret, opts.seats))
    return Game(
        variant=variant,
        options=opts,
        levels=seat_levels,
        seed=secret,
        state=_chain_ahead(state, secret),
    )


def game_apply(game: Game, seat: int, action: Action) -> Game:
    state = _chain_ahead(engine.apply(game.state, seat, action), game.seed)
    entry = (seat, engine.action_to_dict(action))
    return replace(game, state=state, log=(*game.log, entry))


def seat_check(game: Game, seat: Any) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise refuse(gettext_noop("There is no such seat."))
    if not 0 <= seat < game.options.seats:
        raise refuse(gettext_noop("There is no such seat."))
    return seat


def act(game: Game, seat: int, action: Mapping[str, Any] | Action) -> Game:
    """``game`` after ``seat`` does ``action`` (a wire dict or an ``Action``).

    Only the seat that decides now may act (``computer_turn``, else the person's):
    while a computer player is to decide, the person waits for it, except for a
    ``hard`` computer's Muggins call out of turn, which the person's move may
    forestall (as at a live table, where that call comes after the computer's
    delay); ``replay`` allows the same."""
    seat_check(game, seat)
    game, due = expected_seat(game, seat)
    if seat != due:
        raise refuse(gettext_noop("Wait for the computer players."))
    try:
        parsed = engine.parse_action(
            dict(action) if isinstance(action, Mapping) else action
        )
        return game_apply(game, seat, parsed)
    except engine.IllegalAction as exc:
        raise OfflineError(exc.message) from None


def _muggins_caller(game: Game, seat: int) -> bool:
    """Whether computer ``seat`` may call Muggins now and has not let it pass."""
    return (
        game.level_of(seat) in MUGGINS_CALLERS
        and (game.seq, seat) not in game.declined
        and engine.current_seat(game.state) != seat
        and Action.muggins() in engine.legal_actions(game.state, seat)
    )


def computer_turn(game: Game) -> int | None:
    """The computer seat that decides next, or None (the person's turn, or over)."""
    state = game.state
    if state.phase in ("hand_over", "match_over"):
        return None
    for seat in range(1, game.options.seats):
        if _muggins_caller(game, seat):
            return seat
    current = engine.current_seat(state)
    if current is None or current == PERSON:
        return None
    return current


def decide(game: Game, seat: int, machine_speed: float) -> Action | None:
    """What the bot of computer ``seat`` does now; None: lets a window pass."""
    level = game.level_of(seat)
    assert level is not None
    state = game.state
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    rng = random.Random(f"{game.seed}:{game.seq}:{seat}")
    speed = machine_speed if level == "hard" else 1.0
    choice = bots.choose(
        level, engine.view(state, seat), legal, rng, machine_speed=speed
    )
    if choice is None and engine.current_seat(state) != seat:
        return None
    return choice if choice in legal else legal[0]


def computer_move(game: Game, seat: int, *, machine_speed: float = 1.0) -> Game:
    """``game`` after computer ``seat``'s bot decides (see the package's docstring);
    only the seat ``computer_turn`` names may."""
    if seat_check(game, seat) == PERSON:
        raise refuse(gettext_noop("That seat is not a computer player's."))
    if computer_turn(game) != seat:
        raise refuse(gettext_noop("Wait for the computer players."))
    choice = decide(game, seat, machine_speed)
    if choice is None:
        return replace(game, declined=game.declined | {(game.seq, seat)})
    return game_apply(game, seat, choice)


def expected_seat(game: Game, seat: int) -> tuple[Game, int]:
    """The seat that had to decide next, with the Muggins windows that its
    computer opponents let pass (by not calling before ``seat`` acted) recorded:
    a checked level only where its bot lets it pass, ``hard`` always."""
    while True:
        due = computer_turn(game)
        if due is None:
            return game, PERSON
        if due == seat or engine.current_seat(game.state) == due:
            return game, due
        if game.level_of(due) in CHECKED_LEVELS and decide(game, due, 1.0) is not None:
            return game, due
        game = replace(game, declined=game.declined | {(game.seq, due)})

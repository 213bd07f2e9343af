"""The server's replay of an uploaded offline game (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import Action, Options, State
from games.engine.messages import gettext_noop
from games.offline.game import (
    CHECKED_LEVELS,
    MAX_ACTIONS,
    MAX_HANDS,
    PERSON,
    Game,
    decide,
    expected_seat,
    game_apply,
    new_game,
    refuse,
    seat_check,
)


@dataclass(frozen=True)
class Replayed:
    """A valid uploaded game, replayed to its end."""

    variant: str
    options: Options
    levels: tuple[str, ...]
    seed: str
    winners: tuple[int, ...]
    won: bool
    scores: tuple[int, ...]
    hands: int
    actions: int
    state: State
    # The events of the first deal, then each action with the events it made: the
    # table's log as a live practice table writes it.
    dealt: list[dict[str, Any]]
    steps: tuple[tuple[int, dict[str, Any], list[dict[str, Any]]], ...]


def _entry_check(game: Game, entry: Any) -> tuple[int, Action]:
    if (
        isinstance(entry, (str, bytes))
        or not isinstance(entry, Sequence)
        or len(entry) != 2
    ):
        raise refuse(gettext_noop("A move of the game is not valid."))
    seat = seat_check(game, entry[0])
    try:
        return seat, engine.parse_action(entry[1])
    except engine.IllegalAction:
        raise refuse(gettext_noop("A move of the game is not valid.")) from None


def replay(data: Mapping[str, Any]) -> Replayed:
    """Check a whole uploaded game and give its result (see the package's docstring)."""
    if not isinstance(data, Mapping):
        raise refuse(gettext_noop("The game could not be read."))
    actions = data.get("actions")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
        raise refuse(gettext_noop("The game's moves could not be read."))
    if len(actions) > MAX_ACTIONS:
        raise refuse(
            gettext_noop("The game is too long: at most %(count)d moves."),
            count=MAX_ACTIONS,
        )
    game = new_game(
        data.get("variant"),  # type: ignore[arg-type]  # checked by new_game
        data.get("options", {}),
        data.get("levels"),  # type: ignore[arg-type]
        data.get("seed"),  # type: ignore[arg-type]
    )
    dealt = list(game.state.events)
    steps: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
    for number, entry in enumerate(actions, start=1):
        if engine.is_match_over(game.state):
            raise refuse(gettext_noop("The game goes on after its end."))
        seat, action = _entry_check(game, entry)
        game, due = expected_seat(game, seat)
        if seat != due:
            raise refuse(
                gettext_noop("Move %(number)d was not that player's to make."),
                number=number,
            )
        level = game.level_of(seat)
        if level in CHECKED_LEVELS and decide(game, seat, 1.0) != action:
            raise refuse(
                gettext_noop("Move %(number)d is not the computer player's."),
                number=number,
            )
        try:
            game = game_apply(game, seat, action)
        except engine.IllegalAction as exc:
            raise refuse(
                gettext_noop("Move %(number)d is not allowed: %(reason)s"),
                number=number,
                reason=exc.message,
            ) from None
        steps.append((seat, game.log[-1][1], list(game.state.events)))
        if game.state.hand_no > MAX_HANDS:
            raise refuse(
                gettext_noop("The game is too long: at most %(count)d hands."),
                count=MAX_HANDS,
            )
    state = game.state
    if not engine.is_match_over(state):
        raise refuse(gettext_noop("The game is not finished."))
    return Replayed(
        variant=game.variant,
        options=game.options,
        levels=game.levels,
        seed=game.seed,
        winners=tuple(state.winners),
        won=PERSON in state.winners,
        scores=tuple(state.scores),
        hands=state.hand_no,
        actions=game.seq,
        state=state,
        dealt=dealt,
        steps=tuple(steps),
    )

"""The ``dominoes`` package's probabilistic alpha-beta player, seated at our tables.

``bench/bot_tournament.py --versus-package`` plays ``hard`` against the player of
the ``dominoes`` package on PyPI (the bench-only extra: ``pip install -e
".[bench]"``) in the one game that package knows: four seats in two partnerships,
a double-six set, seven tiles each, no stock, blocking (our ``block`` with
``seats=4, partnership=True, tiles_per_seat=7``).

Our engine referees every hand. Before each of the package's decisions the seat's
view (its own tiles, the layout's history with the passes, the other hands'
sizes) is turned into a ``dominoes.Game``: the board replayed move by move, the
moves list with a ``None`` per pass in seat order (the package derives the values
a seat lacks from it), this seat's hand, and the tiles it cannot see dealt to the
other seats by their sizes in an arbitrary order. That is exactly what the package
lets its player know: ``random_possible_hands`` pools the other hands and deals
them again at random under the known missing values, so the arrangement given
here carries no information. The package's chosen ``(domino, left)`` becomes our
``play`` on the left or right end (our ``left``/``right`` are the package's left
and right: both add the first tile with ``left`` and then grow the same line).

The player (documented in the package): ``bota_gorda`` orders the moves (the
heaviest tile first, the package's own heuristic), then ``probabilistic_alphabeta``
from ``START_MOVE`` on, with ``SAMPLE_SIZE`` random deals of the unseen tiles
solved exactly by the package's alpha-beta, reorders them by how often each is
optimal (stable, so ties keep the heaviest first). Before ``START_MOVE`` it plays
the heaviest tile. The package's search copies the game at every node; these two
figures keep one decision under a few seconds of CPU here.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action

# The package's player: alpha-beta over this many sampled deals, from this many
# moves into the hand (passes count as moves, as in the package).
SAMPLE_SIZE = 24
START_MOVE = 8


def _pair(a: int, b: int) -> tuple[int, int]:
    """A tile as our engine names it: the lower half first."""
    return (a, b) if a <= b else (b, a)


class PackagePlayer:
    """A ``Bot`` that decides with the ``dominoes`` package's player."""

    level = "package"

    def __init__(
        self, sample_size: int = SAMPLE_SIZE, start_move: int = START_MOVE
    ) -> None:
        import dominoes  # the bench-only extra

        self._dominoes = dominoes
        self._search = dominoes.players.probabilistic_alphabeta(
            start_move=start_move, sample_size=sample_size
        )

    def game(self, view: dict[str, Any]) -> Any:
        """The ``dominoes.Game`` this seat may know (see the module's docstring)."""
        dm = self._dominoes
        seat = view["seat"]
        opener = None
        moves: list[tuple[Any, bool] | None] = []
        seen: set[tuple[int, int]] = set()
        for e in view["history"]:
            kind = e["type"]
            if kind == "hand_started":
                opener = e["opener"]
            elif kind == "played":
                a, b = e["tile"]
                seen.add(_pair(a, b))
                moves.append((dm.Domino(a, b), e["end"] != "right"))
            elif kind == "passed":
                moves.append(None)
        mine = [_pair(a, b) for a, b in view["hand"]]
        unseen = [
            (a, b)
            for a in range(7)
            for b in range(a, 7)
            if (a, b) not in seen and (a, b) not in mine
        ]
        hands = []
        i = 0
        for s, n in enumerate(view["hand_counts"]):
            if s == seat:
                hands.append(dm.Hand([dm.Domino(a, b) for a, b in mine]))
            else:
                hands.append(dm.Hand([dm.Domino(a, b) for a, b in unseen[i : i + n]]))
                i += n
        if i != len(unseen):
            raise ValueError("the view's hand sizes do not match the unseen tiles")
        board = dm.Board()
        for m in moves:
            if m is not None:
                board.add(*m)
        game = dm.Game(board, hands, moves, seat, (), opener, None)
        if moves:
            game._update_valid_moves()
        else:
            game.valid_moves = tuple((d, True) for d in hands[seat])
        return game

    def decide(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        plays = [a for a in legal if a.type == "play"]
        if len(plays) <= 1:
            return legal[0]
        game = self.game(view)
        offered = {(_pair(*d), left) for d, left in game.valid_moves}
        ours = {(a.tile, a.end != "right") for a in plays}
        if not offered <= ours or {t for t, _ in offered} != {t for t, _ in ours}:
            raise ValueError("the package's game disagrees with ours on the moves")
        random.seed(rng.random())  # the package samples with the global generator
        self._dominoes.players.bota_gorda(game)
        self._search(game)
        d, left = game.valid_moves[0]
        tile = _pair(*d)
        end = "left" if left else "right"
        for a in plays:
            if a.tile == tile and a.end in (end, "root"):
                return a
        for a in plays:  # both ends show the same value: the package offers one
            if a.tile == tile:
                return a
        raise ValueError(f"the package chose {d} {end}, which is not legal here")

    def choose(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random
    ) -> Action | None:
        return self.decide(view, legal, rng)

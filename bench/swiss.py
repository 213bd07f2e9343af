"""Swiss pairing benchmark (a benchmark, not a test: run by hand).

    .venv/bin/python bench/swiss.py [--players 1000] [--rounds 9] [--repeat 5]

Plays a Swiss event of ``--players`` players over ``--rounds`` rounds with random
results (a fixed seed: the same event every run) and times
``tournaments.swiss.pairing.pair_round`` for each round, ``--repeat`` times: the
median per round, and the slowest round's median. Also whether any round had to
pair players again (it should not while a fresh pairing exists).

Not measured: the database (reading the players and their past games, writing the
round's tables: ``bench/swiss_round.py`` measures those on PostgreSQL, against the
goal of <= 200 ms for a round of 1,000 players), the tie-breaks' standings, and
anything but this process's pure Python on this machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournaments.swiss.pairing import WIN, Entrant, pair_round  # noqa: E402

RESULTS = (Fraction(1), Fraction(1, 2), Fraction(0))


def event(players: int, rounds: int, repeat: int) -> None:
    rng = random.Random(49)
    ratings = {uid: rng.gauss(1500, 250) for uid in range(1, players + 1)}
    score = {uid: Fraction(0) for uid in ratings}
    met: dict[int, set[int]] = {uid: set() for uid in ratings}
    byes: set[int] = set()
    seats = {uid: [0, 0, None] for uid in ratings}
    per_round = []
    repeats = 0
    for _ in range(rounds):
        entrants = [
            Entrant(
                user_id=uid,
                score=score[uid],
                rating=ratings[uid],
                entry=uid,
                opponents=frozenset(met[uid]),
                had_bye=uid in byes,
                first_seats=seats[uid][0],
                second_seats=seats[uid][1],
                last_seat=seats[uid][2],
            )
            for uid in ratings
        ]
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = pair_round(entrants)
            times.append(time.perf_counter() - start)
        per_round.append(statistics.median(times))
        repeats += result.repeats
        if result.bye is not None:
            byes.add(result.bye)
            score[result.bye] += WIN
        for first, second in result.games:
            met[first].add(second)
            met[second].add(first)
            seats[first][0] += 1
            seats[second][1] += 1
            seats[first][2], seats[second][2] = 0, 1
            points = rng.choice(RESULTS)
            score[first] += points
            score[second] += WIN - points
    print(
        f"Swiss, {players} players, {rounds} rounds: pairing a round median "
        f"{statistics.median(per_round) * 1000:.1f} ms, slowest round "
        f"{max(per_round) * 1000:.1f} ms (median of {repeat}); "
        f"pairs met again: {repeats}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    event(args.players, args.rounds, args.repeat)


if __name__ == "__main__":
    main()

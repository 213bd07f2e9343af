"""Shared by the tests of the fair deal: fixed chain tops instead of ``secrets``."""

from __future__ import annotations

import hashlib

import pytest

from games import fairness
from games.engine import fair


def top_of(n: int) -> bytes:
    """The ``n``-th chain top the tests draw (0-based)."""
    return hashlib.sha256(f"test chain top {n}".encode()).digest()


class Tops:
    """The chain tops handed out so far, in order."""

    def __init__(self) -> None:
        self.drawn: list[bytes] = []

    def __call__(self) -> bytes:
        top = top_of(len(self.drawn))
        self.drawn.append(top)
        return top

    def secrets(self, hands: int = 8) -> list[str]:
        """Hex of every secret a client must not see early: each chain top and the
        links of its first ``hands`` hands."""
        out = []
        for top in self.drawn:
            out.append(top.hex())
            out += [fair.chain_link(top, k).hex() for k in range(1, hands + 1)]
        return out


@pytest.fixture
def fair_deals(settings, monkeypatch) -> Tops:
    """Fair deals on, with known chain tops (the ``Tops`` drawn so far)."""
    settings.GAMES_FAIR_DEALS = True
    settings.GAMES_FAIR_SEED_SECONDS = 3.0
    tops = Tops()
    monkeypatch.setattr(fairness, "chain_top", tops)
    return tops

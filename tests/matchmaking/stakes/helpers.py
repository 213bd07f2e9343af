"""Helpers of the stake-table tests: funded players, driving a table near its end."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from economy.models import Transaction
from games import engine
from games import services as table_services
from games.models import Table
from matchmaking.stakes import services as stakes
from tests.economy.conftest import assert_sound, fund, snapshot

__all__ = [
    "assert_sound",
    "expiries_fixture",
    "fund",
    "logged_in_fixture",
    "snapshot",
    "stakes_unlocked_fixture",
]


@pytest.fixture(name="expiries", autouse=True)
def expiries_fixture(monkeypatch):
    """No broker: a new stake table's fill-deadline task is not queued (import it
    into a test module to apply it to every test there)."""
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


@pytest.fixture(name="stakes_unlocked")
def stakes_unlocked_fixture(settings):
    """Every stake open to new players (``STAKES_UNLOCK`` empty): for tests about
    something else than stakes unlocked by play (tests/matchmaking/stakes/
    test_unlock.py), whose players have played no rated table."""
    settings.STAKES_UNLOCK = {}


@pytest.fixture(name="logged_in")
def logged_in_fixture(client, make_user):
    """Make a player with ``coins`` in the wallet, signed in on ``client``."""

    def make(coins: int = 1000):
        user = make_user()
        fund(user.pk, coins)
        client.force_login(user)
        return user

    return make


def kinds_of(transaction_kind: str, table_id: int) -> int:
    return Transaction.objects.filter(
        kind=transaction_kind, table_ref=str(table_id)
    ).count()


@dataclass
class FinalMove:
    """The action that ends a table's match, and who plays it."""

    user: Any
    action: dict[str, Any]
    seq: int


def _ending_action(state: engine.State, position: int) -> engine.Action | None:
    for action in engine.legal_actions(state, position):
        if engine.apply(state, position, action).phase == "match_over":
            return action
    return None


def drive_to_last_move(
    table_id: int, users: dict[int, Any], *, rng: random.Random, limit: int = 5000
) -> FinalMove:
    """Play at random until some seated player can end the match; return that move."""
    for _ in range(limit):
        table = Table.objects.get(pk=table_id)
        assert table.status == Table.Status.PLAYING
        state = engine.from_json(table.state)
        actor = next(
            ((p, u) for p, u in users.items() if engine.legal_actions(state, p)), None
        )
        if actor is not None:
            position, user = actor
            ending = _ending_action(state, position)
            if ending is not None:
                return FinalMove(user, engine.action_to_dict(ending), table.seq)
            action = rng.choice(engine.legal_actions(state, position))
            table_services.table_act(
                table_id=table_id,
                user=user,
                action=engine.action_to_dict(action),
                expected_seq=table.seq,
            )
        else:
            assert table.timer, f"table stalled at seq {table.seq} ({state.phase})"
            Table.objects.filter(pk=table_id).update(deadline=None)
            table_services.table_tick(table_id=table_id, seq=table.seq)
    raise AssertionError("no ending move found")

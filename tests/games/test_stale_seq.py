"""An action sent against an older ``seq``: refused after a move, kept after seat
changes (a connection, a forfeit) that leave the game as the player saw it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.errors import TableError
from games.services import seat_presence, seats_offline_tick, table_act
from games.services.seats import OFFLINE_GRACE
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


def _mover(table, ana, ben):
    state = engine.from_json(table.state)
    seat = engine.current_seat(state)
    user, other = (ana, ben) if seat == 0 else (ben, ana)
    action = engine.action_to_dict(engine.legal_actions(state, seat)[0])
    return user, other, action


def test_a_move_after_the_opponents_connection_changed_still_lands(make_user, queued):
    table, ana, ben = two_human_table(make_user, mode="online")
    user, other, action = _mover(table, ana, ben)
    seen = table.seq
    seat_presence(table_id=table.pk, user=other, connected=True)
    seat_presence(table_id=table.pk, user=other, connected=False)
    seats_offline_tick(now=timezone.now() + OFFLINE_GRACE + timedelta(seconds=1))
    new_seq = table_act(table_id=table.pk, user=user, action=action, expected_seq=seen)
    assert new_seq == seen + 3


def test_a_move_against_a_seq_before_another_move_is_refused(make_user, queued):
    table, ana, ben = two_human_table(make_user, mode="online")
    user, other, action = _mover(table, ana, ben)
    seen = table.seq
    table_act(table_id=table.pk, user=user, action=action, expected_seq=seen)
    table.refresh_from_db()
    mover, _, second = _mover(table, ana, ben)
    with pytest.raises(TableError) as err:
        table_act(table_id=table.pk, user=mover, action=second, expected_seq=seen)
    assert err.value.code == "stale_seq"


@pytest.mark.parametrize("seq_offset", [1, 5])
def test_a_seq_from_the_future_is_refused(make_user, queued, seq_offset):
    table, ana, ben = two_human_table(make_user, mode="online")
    user, _, action = _mover(table, ana, ben)
    with pytest.raises(TableError) as err:
        table_act(
            table_id=table.pk,
            user=user,
            action=action,
            expected_seq=table.seq + seq_offset,
        )
    assert err.value.code == "stale_seq"

"""The platform's audit: clean after honest play, and each part catches its breach."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from economy.models import Transaction
from games.models import FinishStep, Seat, Table
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import services as stakes
from matchmaking.stakes.services import stake_cancel, stake_sit
from ops.audit import audit_run
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixture
    fund,
    stakes_unlocked_fixture,
)
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(
    make_user,
    queued,
    pushes,
    django_capture_on_commit_callbacks,
    monkeypatch,
    stakes_unlocked,
):
    """An online table played to its end, a settled stake table, a cancelled one
    and an open one with a player seated."""
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)
    table, ana, ben = two_human_table(make_user, mode="online", target=50)
    with django_capture_on_commit_callbacks(execute=True):
        drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    cy, di, ed = make_user("cy"), make_user("di"), make_user("ed")
    for user in (cy, di, ed):
        fund(user.pk, 1000)
    row = stake_sit(user=cy, stake=100, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True):
        stake_sit(user=di, stake=100, shape="block-2", table_id=row.pk)
    seat_of = dict(
        Seat.objects.filter(table_id=row.pk).values_list("user_id", "position")
    )
    with django_capture_on_commit_callbacks(execute=True):
        drive(row.pk, {seat_of[cy.pk]: cy, seat_of[di.pk]: di}, rng=random.Random(5))
    cancelled = stake_sit(user=ed, stake=250, shape="block-2")
    stake_cancel(table_id=cancelled.pk, reason=StakeTable.Reason.OPERATOR)
    waiting = stake_sit(user=ed, stake=500, shape="block-2")
    return {"online": table.pk, "settled": row.pk, "open": waiting.pk, "ed": ed}


def breaches() -> dict[str, list[str]]:
    return {part: lines for part, lines in audit_run().items() if lines}


def test_honest_play_leaves_every_part_clean(played, capsys):
    assert StakeTable.objects.get(pk=played["settled"]).state == "settled"
    assert breaches() == {}
    call_command("finish_audit")
    out = capsys.readouterr().out
    for part in ("ledger", "finish", "stakes", "sitgo", "swiss", "minting", "dumping"):
        assert f"{part}: clean" in out


def test_a_finish_left_owed_or_unrecorded_is_a_breach(played):
    FinishStep.objects.filter(table_id=played["online"], name="ratings").update(
        done_at=None, created_at=timezone.now() - timedelta(minutes=10)
    )
    FinishStep.objects.filter(table_id=played["online"], name="league").delete()
    found = breaches()
    assert list(found) == ["finish"]
    assert any("ratings owed since" in line for line in found["finish"])
    assert any("without a record of league" in line for line in found["finish"])
    with pytest.raises(CommandError):
        call_command("finish_audit")


def test_a_pot_that_disagrees_with_its_seats_is_a_breach(played):
    # What the socket's generic leave did: the seat bookkeeping lost a sitter
    # while the pot kept the entry.
    StakeSitter.objects.filter(stake_table_id=played["open"]).delete()
    found = breaches()
    assert list(found) == ["stakes"]
    assert f"table {played['open']}" in found["stakes"][0]


def test_a_settled_pot_paid_twice_is_a_breach(played):
    StakeTable.objects.filter(pk=played["open"]).update(state="settled")
    found = breaches()
    assert list(found) == ["stakes"]
    assert "settled with 0 payouts" in found["stakes"][0]


def test_a_reward_for_a_seat_its_owner_did_not_play_is_a_breach(played):
    seat = Seat.objects.filter(table_id=played["online"]).first()
    assert Transaction.objects.filter(
        key=f"reward:{played['online']}:{seat.user_id}"
    ).exists()
    Seat.objects.filter(pk=seat.pk).update(unpaid="standin")
    found = breaches()
    assert list(found) == ["minting"]
    assert "earned nothing (standin)" in found["minting"][0]


def test_metrics_show_the_last_audit(played, client):
    StakeSitter.objects.filter(stake_table_id=played["open"]).delete()
    audit_run()
    text = client.get("/metrics").content.decode()
    assert 'dominoes_audit_breaches{part="stakes"} 1.0' in text
    assert 'dominoes_audit_breaches{part="ledger"} 0.0' in text
    age = next(
        line for line in text.splitlines() if line.startswith("dominoes_audit_age")
    )
    assert float(age.split()[1]) < 60
    assert Table.objects.filter(status="finished").count() == 2


def arena_with_a_leaver(make_user, capture):
    """A 2-player arena table played to its end: ``ana`` played, ``ben`` left it
    at once (his seat was played by the stand-in)."""
    from games.services import seat_leave
    from tournaments.arenas.presence import presence_mark
    from tournaments.arenas.services import arena_create, arena_join, arena_pair

    arena = arena_create(
        pool_key="draw-2", starts_at=timezone.now() - timedelta(minutes=1), minutes=60
    )
    type(arena).objects.filter(pk=arena.pk).update(
        status="live", options={**arena.options, "target": 50}
    )
    ana, ben = make_user("arena_ana"), make_user("arena_ben")
    for user in (ana, ben):
        arena_join(arena_id=arena.pk, user=user)
        presence_mark(arena_id=arena.pk, user_id=user.pk)
    (table_id,) = arena_pair(arena_id=arena.pk)
    seat_leave(table_id=table_id, user=ben)
    ana_seat = Seat.objects.get(table_id=table_id, user=ana).position
    with capture(execute=True):
        drive(table_id, {ana_seat: ana}, rng=random.Random(4))
    assert Seat.objects.get(table_id=table_id, user=ben).unpaid == "standin"
    return arena, ana, ben


def test_an_arena_prize_to_a_player_without_a_game_of_their_own_is_a_breach(
    played, make_user, django_capture_on_commit_callbacks
):
    from tournaments.arenas.prizes import arena_prizes_pay

    arena, ana, ben = arena_with_a_leaver(make_user, django_capture_on_commit_callbacks)
    # What the arena's end paid before earning needs playing: every ranked player.
    arena_prizes_pay(
        arena_id=arena.pk,
        prizes={ana.pk: (1, 1000, 300), ben.pk: (2, 600, 200)},
        at=timezone.now(),
    )
    found = breaches()
    assert list(found) == ["minting"]
    assert found["minting"] == [
        f"minting: arena {arena.pk}: user {ben.pk} was paid "
        f"arena:{arena.pk}:{ben.pk} without an earning game in it"
    ]


def test_a_prize_minted_for_a_sit_and_go_is_a_breach(played, make_user):
    from django.db import transaction

    from economy.ledger import ledger_post, system_account, wallets_ensure
    from economy.models import Account, XpAward

    user = make_user("sitgo_winner")
    with transaction.atomic():
        wallet = Account.objects.get(pk=wallets_ensure(user_ids=[user.pk])[user.pk])
        ledger_post(
            key=f"prize:sitgo-7:{user.pk}",
            kind=Transaction.Kind.REWARD,
            legs=[(system_account(kind=Account.Kind.MINT), -500), (wallet, 500)],
            fingerprint="test",
            table_ref="sitgo-7",
        )
    XpAward.objects.create(
        key=f"xp:sitgo-8:{user.pk}", user=user, amount=50, fingerprint="test"
    )
    found = breaches()
    assert list(found) == ["minting"]
    assert found["minting"] == [
        f"minting: prize:sitgo-7:{user.pk} minted coins or XP for a sit-and-go, "
        "which has no prize",
        f"minting: xp:sitgo-8:{user.pk} minted coins or XP for a sit-and-go, "
        "which has no prize",
    ]

"""The bots' queue under real threads on PostgreSQL: seeks repeated and raced make
one table per pairing, each bot seated once; a raced upgrade makes one bot."""

from __future__ import annotations

import pytest

from accounts.models import BotAccount
from api.bot_models import BotSeek
from api.bot_queue import bot_queue_pair_all, bot_seek
from api.bots import BotUpgradeError, bot_upgrade
from economy.audit import ledger_audit
from games.models import Seat, Table
from tests.support.threads import in_threads

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_raced_seeks_of_two_bots_make_one_table(make_user, queued, pushes):
    alpha, beta = make_user("alpha"), make_user("beta")
    BotAccount.objects.bulk_create([BotAccount(user=alpha), BotAccount(user=beta)])
    calls = [(alpha.pk,), (beta.pk,)] * 4
    in_threads(lambda uid: bot_seek(user_id=uid, pool="draw-2"), calls)
    in_threads(lambda: bot_queue_pair_all(), [()] * 3)
    assert Table.objects.count() == 1
    table = Table.objects.get()
    assert sorted(
        Seat.objects.filter(table=table).values_list("user_id", flat=True)
    ) == sorted([alpha.pk, beta.pk])
    assert set(BotSeek.objects.values_list("table_id", flat=True)) == {table.pk}
    assert ledger_audit() == []


def test_raced_upgrades_make_one_bot(make_user):
    robo = make_user("robo")
    outcomes: list[str] = []

    def upgrade() -> None:
        try:
            bot_upgrade(user_id=robo.pk)
            outcomes.append("ok")
        except BotUpgradeError as err:
            outcomes.append(err.code)

    in_threads(upgrade, [()] * 6)
    assert sorted(outcomes) == ["bot"] * 5 + ["ok"]
    assert BotAccount.objects.filter(user=robo).count() == 1


def test_an_upgrade_raced_with_a_paid_entry_never_leaves_a_bot_holding_coins(
    make_user, queued, pushes
):
    """A sit-and-go entry (a stake seat needs rated tables, which refuse the upgrade
    anyway) paid at the moment of the upgrade: one of the two wins."""
    from api.bots import coins_held
    from tests.economy.conftest import assert_sound, fund
    from tournaments.sitgo.errors import SitGoError
    from tournaments.sitgo.services import sitgo_enter

    for round_no in range(4):
        robo = make_user(f"robo{round_no}")
        fund(robo.pk, 1000)
        outcomes: list[str] = []

        def upgrade(user_id: int, out: list[str]) -> None:
            try:
                bot_upgrade(user_id=user_id)
                out.append("bot")
            except BotUpgradeError as err:
                out.append(err.code)

        def enter(user: object, out: list[str]) -> None:
            try:
                sitgo_enter(user=user, size=4, entry=100)
                out.append("entered")
            except SitGoError as err:
                out.append(err.code)

        in_threads(
            lambda f, *a: f(*a),
            [(upgrade, robo.pk, outcomes), (enter, robo, outcomes)],
        )
        is_bot = BotAccount.objects.filter(user=robo).exists()
        held = coins_held(user_id=robo.pk)
        assert not (is_bot and held), outcomes
        # Four entries fill the sit-and-go, so the last round's entry may start a
        # rated table before the upgrade looks: then "rated" is its refusal.
        assert sorted(outcomes) in (
            ["bot", "bot_account"],
            ["coins_held", "entered"],
            ["entered", "rated"],
        ), outcomes
        assert held in (0, 100)
    assert_sound()

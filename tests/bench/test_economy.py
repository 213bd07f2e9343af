"""bench/economy.py on a small run: one simulated day of a few players through the
real services, every coin accounted to a source, the ledger sound."""

from __future__ import annotations

import pytest

from bench.economy import INTENDED, report, simulate, source_of, standing
from economy.models import Transaction

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_day_of_play_is_accounted_by_source(monkeypatch, capsys):
    run = simulate(players=4, days=1, seed=3, patch=monkeypatch.setattr)
    assert run.table_seconds, "the players played tables"
    assert all(p.seconds > 0 for p in run.players if p.plays_daily)
    report(run)
    out = capsys.readouterr().out
    assert "ledger audit: clean" in out
    assert "other" not in out, "every coin has a known source"
    for source in ("online table rewards", "daily bonus", "sign-up grant"):
        assert source in out
    assert "table rewards, all tables" in out and "per hour" in out
    assert out.count("after league") == 1


def test_sources_and_standings():
    modes = {"7": "online table rewards"}
    assert source_of("reward:7:3", Transaction.Kind.REWARD, modes) == (
        "online table rewards"
    )
    assert source_of("arena:2:3", Transaction.Kind.REWARD, modes) == "arena prizes"
    assert source_of("league:2025-W02:3", Transaction.Kind.REWARD, modes) == (
        "league rewards"
    )
    assert source_of("purchase:3:n", Transaction.Kind.PURCHASE, modes) == (
        "shop (burned)"
    )
    low, high = INTENDED["daily bonus"]
    assert standing("daily bonus", low).startswith("in range")
    assert standing("daily bonus", high + 1).startswith("above")
    assert standing("daily bonus", low - 1).startswith("below")
    assert standing("sign-up grant", 10**6) == ""

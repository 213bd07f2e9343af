"""The economy's public writes, for views, tasks and other apps (matchmaking).

Every function is atomic (``pot_entry_post`` and ``pot_open`` without a savepoint
of their own, in the caller's transaction), takes keyword-only plain data (no models
of other apps) and is idempotent by its ledger key. See ``docs/economy.md``.
"""

from economy.ledger import wallets_ensure
from economy.pots import (
    pot_entry_pay,
    pot_entry_post,
    pot_entry_refund,
    pot_open,
    pot_refund_all,
    pot_settle,
    pot_settle_places,
)
from economy.rewards import Placing, RewardLine, rewards_compute, table_rewards_pay
from economy.shop import shop_buy
from economy.wallets import daily_bonus_claim, ledger_correct, wallet_grant_signup

__all__ = [
    "Placing",
    "RewardLine",
    "daily_bonus_claim",
    "ledger_correct",
    "pot_entry_pay",
    "pot_entry_post",
    "pot_entry_refund",
    "pot_open",
    "pot_refund_all",
    "pot_settle",
    "pot_settle_places",
    "rewards_compute",
    "shop_buy",
    "table_rewards_pay",
    "wallet_grant_signup",
    "wallets_ensure",
]

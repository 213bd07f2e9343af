"""Coin wallets on a double-entry ledger: pots, rewards, XP, boosters, VIP, shop."""

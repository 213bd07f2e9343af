"""Stake tables: seating for an entry fee, fill or cancel, settlement of the pot."""

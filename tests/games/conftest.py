"""Fixtures of the games tests."""

from tests.games.fairness import fair_deals

__all__ = ["fair_deals"]

"""Matchmaking's models, one module per concern."""

from matchmaking.models.stakes import StakeSitter, StakeTable

__all__ = ["StakeSitter", "StakeTable"]

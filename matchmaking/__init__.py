"""Queues, backfill with simulated players, friend rooms, invitations and ratings."""

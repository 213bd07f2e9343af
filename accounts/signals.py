"""Signals of accounts, for the apps above it."""

from __future__ import annotations

from django.dispatch import Signal

# A player's first page opened (``online=True``) or last page closed: sent with
# ``user_id`` and ``name`` (their username) from the presence socket, off the event
# loop; receivers may use the database.
presence_changed = Signal()

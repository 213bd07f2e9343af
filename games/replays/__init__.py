"""Replays of ended tables: who may watch one, the steps the viewer walks through,
and the text record (docs/notation.md)."""

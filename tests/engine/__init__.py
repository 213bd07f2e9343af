"""Tests of the pure rules engine (no database)."""

"""Tests of the offline practice game (games.offline): pure, no database."""

"""The embedded default's SQLite: WAL, so a writer does not block readers."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="the embedded default's database"
    ),
]


def test_connections_use_wal_and_normal_sync():
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL


def test_a_reader_reads_while_another_connection_commits(tmp_path):
    """In the rollback journal a commit locks readers out; in WAL it does not."""
    from django.db.backends.sqlite3.base import DatabaseWrapper

    settings_dict = {**connection.settings_dict, "NAME": str(tmp_path / "db.sqlite3")}
    first, second = (DatabaseWrapper(settings_dict, alias=a) for a in ("a", "b"))
    try:
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE t (x INTEGER)")
        writer = first.connection
        writer.execute("BEGIN EXCLUSIVE")  # what a commit takes in rollback mode
        writer.execute("INSERT INTO t VALUES (1)")
        second.ensure_connection()
        second.connection.execute("PRAGMA busy_timeout = 0")
        try:
            with second.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM t")
                assert cursor.fetchone()[0] == 0
        except sqlite3.OperationalError as exc:  # "database is locked"
            pytest.fail(f"a reader was locked out: {exc}")
        writer.execute("COMMIT")
    finally:
        first.close()
        second.close()

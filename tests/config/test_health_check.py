"""The PostgreSQL backend skips the health check's ``SELECT 1`` on a connection in
use (``dbtools/postgresql``), checks a quiet one, and replaces one that died."""

from __future__ import annotations

import pytest
from django.db import close_old_connections, connection, connections

from dbtools.postgresql import base

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def checked(settings):
    """Health checks on, as in production; the statements psycopg is sent."""
    connection.close()
    connection.settings_dict["CONN_HEALTH_CHECKS"] = True
    connection.settings_dict["CONN_MAX_AGE"] = 60
    sent: list[str] = []

    def record(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    yield sent, record
    connection.settings_dict["CONN_HEALTH_CHECKS"] = False
    connection.settings_dict["CONN_MAX_AGE"] = 0
    connection.close()


def request_cycle(record) -> None:
    """What each request (or socket frame) does: the start-of-request cleanup, then
    one query."""
    close_old_connections()
    with connection.execute_wrapper(record), connection.cursor() as cursor:
        cursor.execute("SELECT 42")


def test_a_busy_connection_is_not_pinged_and_a_quiet_one_is(checked, monkeypatch):
    assert connection.vendor == "postgresql"
    assert isinstance(connections["default"], base.DatabaseWrapper)
    sent, record = checked
    asked: list[bool] = []
    real = base.base.DatabaseWrapper.is_usable

    def spy(self):
        asked.append(True)
        return real(self)

    monkeypatch.setattr(base.base.DatabaseWrapper, "is_usable", spy)
    request_cycle(record)  # opens the connection
    pid = connection.connection.info.backend_pid
    for _ in range(5):
        request_cycle(record)
    assert asked == []  # in use: trusted without a round trip
    assert connection.connection.info.backend_pid == pid

    connection._used_at -= base.QUIET_SECONDS + 1  # quiet for a while
    request_cycle(record)
    assert asked == [True]  # checked as Django checks it
    assert connection.connection.info.backend_pid == pid


def test_a_connection_killed_while_quiet_is_replaced_before_the_query(checked):
    sent, record = checked
    request_cycle(record)
    pid = connection.connection.info.backend_pid
    import psycopg

    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection._used_at -= base.QUIET_SECONDS + 1
    request_cycle(record)  # no error: the check found it dead and reconnected
    assert connection.connection.info.backend_pid != pid

"""PostgreSQL connections start in UTC: no ``SET TimeZone`` per new connection."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_a_new_connection_is_in_utc_before_any_statement():
    import psycopg

    params = connection.get_connection_params()
    with psycopg.connect(**params) as raw:
        # Nothing has been sent on this connection yet: the server reports the
        # session's time zone from the startup packet.
        assert raw.info.parameter_status("TimeZone") == "UTC"
    assert connection.timezone_name == "UTC"

"""Behind the proxy, one address's failed log-ins lock out that address only.

Every request reaches daphne from the proxy (127.0.0.1). allauth limits failed
log-ins per client address (10 a minute); unless the settings trust the proxy's
X-Forwarded-For, ten wrong passwords from anyone lock the whole site out.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from tests.config.test_settings import resolve

PASSWORD = "a-Long-pass-42"
PROXY = "127.0.0.1"


@pytest.fixture
def behind_proxy_settings() -> dict[str, object]:
    """What ``BEHIND_PROXY=true`` makes of the settings allauth and Django read."""
    got = resolve(BEHIND_PROXY="true")
    header = got["secure_proxy_ssl_header"]
    return {
        "ALLAUTH_TRUSTED_PROXY_COUNT": got["allauth_trusted_proxy_count"],
        "SECURE_PROXY_SSL_HEADER": tuple(header) if header else None,
    }


def _login(client, login: str, password: str, address: str):
    return client.post(
        "/accounts/login/",
        {"login": login, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=address,
    )


@pytest.mark.django_db
def test_failed_logins_of_one_address_do_not_lock_out_another(
    client, make_user, behind_proxy_settings
):
    cache.clear()
    make_user("Nuria", password=PASSWORD)
    attacker, player = "203.0.113.7", "198.51.100.20"
    with override_settings(**behind_proxy_settings):
        # Different names, so the per-account limit (5 in 5 minutes) is not what
        # stops them: the per-address limit is.
        for n in range(12):
            _login(client, f"nobody{n}", "wrong-password", attacker)
        locked = _login(client, "Nuria", PASSWORD, attacker)
        assert "_auth_user_id" not in client.session
        assert locked.status_code in (200, 429)

        resp = _login(client, "Nuria", PASSWORD, player)
        assert resp.status_code == 302, resp.content[:400]
        assert client.session.get("_auth_user_id")
    cache.clear()

"""The sign-up limit per address: allauth's default unless SIGNUP_RATE_LIMIT sets it,
and allauth's other limits kept."""

from __future__ import annotations

from allauth.account import app_settings
from django.test import override_settings


def test_signup_limit_defaults_to_twenty_a_minute_and_keeps_the_others():
    limits = app_settings.RATE_LIMITS
    assert limits["signup"] == "20/m/ip"
    assert limits["login_failed"]  # the lock-out after failed log-ins stays


@override_settings(ACCOUNT_RATE_LIMITS={"signup": "600/m/ip"})
def test_a_test_server_may_raise_it():
    assert app_settings.RATE_LIMITS["signup"] == "600/m/ip"
    assert app_settings.RATE_LIMITS["login"] == "30/m/ip"

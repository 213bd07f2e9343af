"""Shared fixtures and the rule for service tests.

Tests marked ``services`` need the real PostgreSQL and Redis (``DATABASE_URL`` and
``REDIS_URL``). Locally they skip when those are not configured; with
``REQUIRE_SERVICES`` set (CI) a missing service is a failure, never a skip.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings


def services_available() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql") and bool(
        settings.REDIS_URL
    )


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    if services_available():
        return
    if os.environ.get("REQUIRE_SERVICES"):
        raise pytest.UsageError(
            "REQUIRE_SERVICES is set but DATABASE_URL/REDIS_URL do not point at "
            "PostgreSQL and Redis: service tests may not skip."
        )
    skip = pytest.mark.skip(reason="needs DATABASE_URL and REDIS_URL")
    for item in items:
        if item.get_closest_marker("services"):
            item.add_marker(skip)


@pytest.fixture
def make_user(django_user_model):
    """Create a player with a verified e-mail address."""
    from allauth.account.models import EmailAddress

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, password: str = "a-Long-pass-42", **extra):
        name = username or f"player{next(counter)}"
        user = django_user_model.objects.create_user(
            username=name, email=f"{name.lower()}@example.com", password=password, **extra
        )
        EmailAddress.objects.create(
            user=user, email=user.email, primary=True, verified=True
        )
        return user

    return make

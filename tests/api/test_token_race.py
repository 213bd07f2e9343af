"""The 20-token cap holds when requests for new tokens race (PostgreSQL, real
threads): the owner's row lock lets one through at a time."""

from __future__ import annotations

import pytest

from api.errors import ApiError
from api.models import ApiToken
from api.tokens import token_create
from tests.support.threads import in_threads

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_racing_requests_never_pass_the_cap(make_user):
    user = make_user()
    for i in range(18):
        token_create(owner=user, name=f"t{i}", scopes=["read"])
    made: list[str] = []
    refused: list[str] = []

    def make(name: str) -> None:
        try:
            token_create(owner=user, name=name, scopes=["read"])
            made.append(name)
        except ApiError as exc:
            assert exc.code == "too_many_tokens"
            refused.append(name)

    in_threads(make, [(f"race{i}",) for i in range(6)])
    assert len(made) == 2 and len(refused) == 4
    assert ApiToken.objects.filter(owner=user, revoked_at__isnull=True).count() == 20

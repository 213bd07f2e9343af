"""Fixtures of the API's tests: tokens and a request with one."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_token():
    """``make(user, scopes=("read", "play"))`` -> (token row, secret)."""
    from api.tokens import token_create

    def make(user, scopes=("read", "play"), name="test"):
        return token_create(owner=user, name=name, scopes=list(scopes))

    return make


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}

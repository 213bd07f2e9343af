import pytest

from tests.tournaments.sitgo.helpers import fund


@pytest.fixture
def funded(make_user):
    """A new player with ``coins`` in the wallet."""

    def make(coins: int = 1000):
        user = make_user()
        fund(user.pk, coins)
        return user

    return make

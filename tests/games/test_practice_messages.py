"""The practice table's refusal names the number of computer players in words."""

from __future__ import annotations

import pytest

from games.errors import TableError
from games.models import Table
from games.services import table_practice_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("block", {}, "Choose a level for the computer player."),
        (
            "draw",
            {"seats": 4},
            "Choose a level for each of the 3 computer players.",
        ),
    ],
)
def test_a_missing_computer_level_is_refused_with_a_plural_aware_message(
    make_user, variant, options, message
):
    with pytest.raises(TableError) as err:
        table_practice_create(
            user=make_user("ana"), variant=variant, options=options, bot_levels=[]
        )
    assert err.value.code == "bad_options"
    assert err.value.message == message
    assert not Table.objects.exists()

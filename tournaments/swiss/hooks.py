"""What the Swiss events hang on ``games``' hooks: a finished table's result (a
finish consequence of online tables), a cancelled table's replay, and the table
page's link back with the player's standing, and the club page's events."""

from __future__ import annotations

from clubs.sections import club_section_register
from games.events import event_link_register
from games.finish import consequence_register
from games.signals import table_cancelled
from tournaments.swiss.rounds import swiss_on_table_cancelled, swiss_on_table_finished
from tournaments.swiss.sections import swiss_club_section
from tournaments.swiss.selectors import swiss_of_table, swiss_standing_of_table


def hooks_register() -> None:
    """Register the hooks once (``TournamentsConfig.ready``)."""
    consequence_register("swiss", swiss_on_table_finished, modes=("online",))
    table_cancelled.connect(
        swiss_on_table_cancelled, dispatch_uid="tournaments.swiss.cancelled"
    )
    event_link_register(
        "swiss", swiss_of_table, modes=("online",), standing=swiss_standing_of_table
    )
    club_section_register("swiss", swiss_club_section)

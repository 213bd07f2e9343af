"""What the sit-and-gos hang on ``games``' hooks: a finished table's result (a
finish consequence of online tables), a cancelled table's replay, and the table
page's link back."""

from __future__ import annotations

from games.events import event_link_register
from games.finish import consequence_register
from games.signals import table_cancelled
from tournaments.sitgo.rounds import sitgo_on_table_cancelled, sitgo_on_table_finished
from tournaments.sitgo.selectors import sitgo_of_table


def hooks_register() -> None:
    """Register the hooks once (``TournamentsConfig.ready``)."""
    consequence_register("sitgo", sitgo_on_table_finished, modes=("online",))
    table_cancelled.connect(
        sitgo_on_table_cancelled, dispatch_uid="tournaments.sitgo.cancelled"
    )
    event_link_register("sitgo", sitgo_of_table, modes=("online",))

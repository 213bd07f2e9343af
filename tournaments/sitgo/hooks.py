"""What the sit-and-gos hang on ``games``' hooks: a finished table's result (a
finish consequence of online tables), a cancelled table's replay, the table
page's link back, and the check that keeps its entrants from searching an online
pool or sitting at a stake table."""

from __future__ import annotations

from games.events import event_link_register
from games.finish import consequence_register
from games.signals import table_cancelled
from matchmaking.commitments import commitment_check_register
from tournaments.sitgo.commitments import sitgo_commitment
from tournaments.sitgo.rounds import sitgo_on_table_cancelled, sitgo_on_table_finished
from tournaments.sitgo.selectors import sitgo_of_table, sitgo_standing_of_table


def hooks_register() -> None:
    """Register the hooks once (``TournamentsConfig.ready``)."""
    consequence_register("sitgo", sitgo_on_table_finished, modes=("online",))
    table_cancelled.connect(
        sitgo_on_table_cancelled, dispatch_uid="tournaments.sitgo.cancelled"
    )
    event_link_register(
        "sitgo", sitgo_of_table, modes=("online",), standing=sitgo_standing_of_table
    )
    commitment_check_register("sitgo", sitgo_commitment)

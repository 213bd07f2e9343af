"""A process that plays a table to its end and dies (SIGKILL) right before one
consequence of the finish, after the final move's commit: what a crash of a
daphne or worker process at that moment leaves behind.

``python -m tests.support.finish_crash TABLE_ID USER_ID[,USER_ID…] NAME`` with
``DATABASE_URL`` pointing at the database the table lives in; the users are
seated in seat order and play at random.
"""

from __future__ import annotations

import os
import random
import signal
import sys


def main(table_id: int, user_ids: list[int], name: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import finish
    from tests.support.tables import drive

    def die(notice: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    owed = finish.consequence(name)
    finish.consequence_register(name, die, modes=owed.modes)
    users = get_user_model().objects.in_bulk(user_ids)
    drive(table_id, {i: users[u] for i, u in enumerate(user_ids)}, rng=random.Random(7))
    sys.exit("the table finished and nothing was killed")


if __name__ == "__main__":
    main(int(sys.argv[1]), [int(u) for u in sys.argv[2].split(",")], sys.argv[3])

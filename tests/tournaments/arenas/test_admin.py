"""Staff-created arenas: the admin's add form and ``manage.py arena_create``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.arenas.models import Arena

pytestmark = pytest.mark.django_db


def test_staff_add_an_arena_in_the_admin(client, make_user):
    staff = make_user(is_staff=True, is_superuser=True)
    client.force_login(staff)
    form = client.get("/admin/tournaments/arena/add/").content.decode()
    assert 'name="pool"' in form and 'name="minutes"' in form
    reply = client.post(
        "/admin/tournaments/arena/add/",
        {
            "pool": "draw-4p",
            "starts_at_0": "2030-01-02",
            "starts_at_1": "18:00:00",
            "minutes": "90",
        },
    )
    assert reply.status_code == 302, reply.context["adminform"].form.errors
    arena = Arena.objects.get()
    assert (arena.pool, arena.seats, arena.partnership) == ("draw-4p", 4, True)
    assert (arena.ends_at - arena.starts_at).total_seconds() == 90 * 60
    assert arena.created_by == staff and arena.schedule_key is None
    assert client.get(f"/admin/tournaments/arena/{arena.pk}/change/").status_code == 200


def test_the_command_makes_an_arena_starting_now():
    out = StringIO()
    call_command("arena_create", "block-2", "--minutes", "20", stdout=out)
    arena = Arena.objects.get(pk=int(out.getvalue()))
    assert arena.variant == "block" and arena.status == Arena.Status.SCHEDULED
    with pytest.raises(CommandError, match="no such game"):
        call_command("arena_create", "nope", stdout=StringIO())

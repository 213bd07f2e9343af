"""Connections left by a process that died are deleted by the periodic prune
(the online count already ignores them; the rows would pile up)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Presence
from accounts.selectors import online_count
from accounts.services import PRESENCE_STALE_AFTER
from accounts.tasks import presence_prune_task

pytestmark = pytest.mark.django_db


def test_the_prune_forgets_dead_connections_and_keeps_live_ones(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    long_ago = timezone.now() - PRESENCE_STALE_AFTER - timedelta(seconds=5)
    Presence.objects.create(channel_name="dead", user=ana, seen_at=long_ago)
    Presence.objects.create(channel_name="live", user=ben, seen_at=timezone.now())
    presence_prune_task()
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live"]
    assert online_count() == 1

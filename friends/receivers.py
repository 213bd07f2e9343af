"""Friends listen: a block ends a friendship; coming online or going offline is
told to one's friends."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.signals import presence_changed
from friends.notify import friend_presence_push
from friends.selectors import friend_ids
from friends.services import friendship_end
from matchmaking.pools.models import Block


@receiver(post_save, sender=Block)
def block_ends_friendship(
    sender: Any, instance: Block, created: bool, **kw: Any
) -> None:
    if created:
        friendship_end(blocker_id=instance.blocker_id, blocked_id=instance.blocked_id)


@receiver(presence_changed)
def presence_to_friends(
    sender: Any, user_id: int, name: str, online: bool, **kw: Any
) -> None:
    ids = friend_ids(user_id)
    if ids:
        friend_presence_push(friend_ids=ids, name=name, online=online)

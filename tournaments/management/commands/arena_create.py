"""``manage.py arena_create POOL [--in MINUTES] [--minutes LENGTH]``: a staff arena
from the command line (operators, and the browser tests' server)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from tournaments.arenas.errors import ArenaError
from tournaments.arenas.services import arena_create


class Command(BaseCommand):
    help = "Create an arena of a pool, starting in --in minutes (0: now)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("pool")
        parser.add_argument("--in", dest="start_in", type=float, default=0.0)
        parser.add_argument("--minutes", type=int, default=60)

    def handle(self, *args: Any, **options: Any) -> None:
        starts_at = timezone.now() + timedelta(minutes=options["start_in"])
        try:
            arena = arena_create(
                pool_key=options["pool"],
                starts_at=starts_at,
                minutes=options["minutes"],
            )
        except ArenaError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(str(arena.pk))

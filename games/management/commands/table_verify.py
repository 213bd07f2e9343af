"""``manage.py table_verify <id> [<id> …]``: replay seed + log and compare."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Table
from games.replay import ReplayMismatch, table_verify


class Command(BaseCommand):
    help = (
        "Replay tables from their seed and move log and compare with the stored state."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table_ids", nargs="+", type=int)

    def handle(self, *args: object, table_ids: list[int], **options: object) -> None:
        failed = 0
        for table_id in table_ids:
            try:
                table_verify(table=Table.objects.get(pk=table_id))
            except Table.DoesNotExist:
                self.stderr.write(f"table {table_id}: no such table")
                failed += 1
            except ReplayMismatch as exc:
                self.stderr.write(str(exc))
                failed += 1
            else:
                self.stdout.write(f"table {table_id}: replay matches")
        if failed:
            raise CommandError(f"{failed} table(s) failed verification")

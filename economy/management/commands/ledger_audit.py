"""``manage.py ledger_audit``: check every ledger invariant; exit 1 on any breach."""

import time

from django.core.management.base import BaseCommand, CommandError

from economy.audit import ledger_audit


class Command(BaseCommand):
    help = "Check every invariant of the coin ledger; exit non-zero on any breach."

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        breaches = [str(b) for b in ledger_audit()]
        elapsed = time.perf_counter() - started
        for line in breaches:
            self.stderr.write(self.style.ERROR(line))
        if breaches:
            raise CommandError(f"ledger audit: {len(breaches)} breach(es)")
        self.stdout.write(self.style.SUCCESS(f"ledger audit: clean ({elapsed:.2f} s)"))

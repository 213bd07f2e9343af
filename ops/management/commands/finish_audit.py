"""``manage.py finish_audit``: every part of ``ops.audit`` (the ledger, finishes,
stake and sit-and-go pots, minting, dumping); exit 1 on any breach."""

import time

from django.core.management.base import BaseCommand, CommandError

from ops.audit import audit_run


class Command(BaseCommand):
    help = (
        "Check the ledger, that every finished table applied what it owed, that "
        "every stake and sit-and-go pot matches its seats, that nobody was paid a "
        "reward or an event prize they did not earn by playing, and list stake "
        "tables where a seat fed an account it had met without playing; exit "
        "non-zero on any breach."
    )

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        found = audit_run()
        elapsed = time.perf_counter() - started
        total = 0
        for part, lines in found.items():
            for line in lines:
                self.stderr.write(self.style.ERROR(line))
            total += len(lines)
            verdict = f"{len(lines)} breach(es)" if lines else "clean"
            self.stdout.write(f"{part}: {verdict}")
        if total:
            raise CommandError(f"audit: {total} breach(es)")
        self.stdout.write(self.style.SUCCESS(f"audit: clean ({elapsed:.2f} s)"))

"""``manage.py finish_audit``: the ledger, every finish and every stake pot; exit 1
on any breach."""

import time

from django.core.management.base import BaseCommand, CommandError

from ops.audit import audit_run


class Command(BaseCommand):
    help = (
        "Check the ledger, that every finished table applied what it owed, that "
        "every stake pot matches its seats and that nobody was paid for a seat "
        "they did not play; exit non-zero on any breach."
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

"""``makemessages`` with the project's defaults, so every run extracts the same set.

Only our own code is read (not the virtual environment, collected static files,
tests, benchmarks or docs), locations name the file without a line number (so a
moved line does not churn every catalog), and obsolete entries are dropped. The
catalog tests run this same command in a scratch copy and compare.
"""

from typing import Any

from django.core.management.commands import makemessages

IGNORED = [
    ".venv",
    "venv",
    "staticfiles",
    "tests",
    "bench",
    "docs",
    "platform",
    "build",
    "node_modules",
    "test-artifacts",
]


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> str | None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        if options.get("add_location") is None:
            options["add_location"] = "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)

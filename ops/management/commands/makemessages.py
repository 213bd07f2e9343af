"""``makemessages`` with the project's defaults, so every run extracts the same set.

Only our own code is read (not the virtual environment, collected static files,
tests, benchmarks or docs), locations name the file without a line number (so a
moved line does not churn every catalog), obsolete entries are dropped, and the
engine's context marks (``pgettext_noop``) are read. The
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
    # The engine, which has no Django, marks a word of two meanings with its
    # context by ``games.engine.messages.pgettext_noop(context, text)``.
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=pgettext_noop:1c,2",
        # accounts.borrowed_strings marks the libraries' plurals it copies.
        "--keyword=ngettext_noop:1,2",
    ]

    def handle(self, *args: Any, **options: Any) -> str | None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        if options.get("add_location") is None:
            options["add_location"] = "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)

"""The one error type of table services: a code for machines, a message for people."""

from core.refusals import Refusal


class TableError(Refusal):
    """An action or request the table refuses; nothing was changed.

    ``field`` names the option at fault, for forms (None when no one option is).
    """

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(code, message)
        self.field = field

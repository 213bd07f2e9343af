"""The one error type of table services: a code for machines, a message for people."""


class TableError(Exception):
    """An action or request the table refuses; nothing was changed."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field  # the option at fault, for forms

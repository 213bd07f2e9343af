"""The one error type of stake-table services: a code for machines, a message for
people (already translated, with no ids or internals)."""


class StakeError(Exception):
    """A stake-table request refused; nothing was changed and no coin moved."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

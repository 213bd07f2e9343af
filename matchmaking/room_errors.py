"""The one error type of room services: a code for machines, a message for people."""


class RoomError(Exception):
    """A room action that was refused; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

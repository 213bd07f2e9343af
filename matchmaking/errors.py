"""The one error type of matchmaking services: a code and a message for a player."""


class MatchError(Exception):
    """A request the matchmaker refuses; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_frame(self) -> dict[str, str]:
        return {"type": "error", "code": self.code, "message": self.message}

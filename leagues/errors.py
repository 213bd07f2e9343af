"""League errors, each with a code and a message written for a person."""


class LeagueError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

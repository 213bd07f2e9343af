"""League errors, each with a code and a message written for a person."""

from core.refusals import Refusal


class LeagueError(Refusal):
    """A league request refused; nothing was changed."""

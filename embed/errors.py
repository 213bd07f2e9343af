"""Refusals of the embedded game."""

from core.refusals import Refusal


class EmbedError(Refusal):
    """A frame's request refused (a token that is not ours, too many new games)."""

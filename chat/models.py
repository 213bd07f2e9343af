"""Free-text chat lines (kept so that a player can report one) and reports."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatLine(models.Model):
    """One free-text line said in a friend room (set phrases are not kept)."""

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=200)
    # The line as the word filter reads it (``core.words.text_normal``: case,
    # accents, invisible characters and look-alike letters folded), for the staff.
    normal = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.text


class ChatReport(models.Model):
    """A player reported a line to the staff."""

    line = models.ForeignKey(ChatLine, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["line", "reporter"], name="chat_report_once"
            )
        ]

    def __str__(self) -> str:
        return f"report of line {self.line_id}"

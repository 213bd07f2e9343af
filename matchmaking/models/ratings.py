"""Ratings per variant (openskill's mu and sigma) and their history."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's current skill estimate in one variant."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    tables = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant"], name="rating_one_per_variant"
            )
        ]
        indexes = [models.Index(fields=["variant", "mu"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant} mu={self.mu:.2f} sigma={self.sigma:.2f}"


class RatingChange(models.Model):
    """One rated table's effect on one player; at most one per table and player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    table_id = models.PositiveBigIntegerField()
    variant = models.CharField(max_length=20)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_id", "user"], name="rating_change_once_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}: {self.user_id}"

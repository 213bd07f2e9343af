"""Staff's view of the addresses and devices players were seen with (as HMACs):
accounts sharing a digest are linked (``accounts.links``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import Sighting


@admin.register(Sighting)
class SightingAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "digest", "first_seen", "last_seen"]
    list_filter = ["kind"]
    search_fields = ["user__username", "=digest"]
    readonly_fields = ["user", "kind", "digest", "first_seen", "last_seen"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

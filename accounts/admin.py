"""Staff's view of the addresses and devices players were seen with (as HMACs):
accounts sharing a digest are linked (``accounts.links``); and of the bot accounts,
read-only (an upgrade is irreversible: staff neither make nor undo one here)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import BotAccount, Sighting


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


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin):
    list_display = ["user", "upgraded_at"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "upgraded_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

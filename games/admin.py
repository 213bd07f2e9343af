"""Tables, seats and the move log in the admin: read-only, with a Cancel action."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from games.models import FinishStep, Seat, Table, TableEvent
from games.names import seat_display_name
from games.services import table_cancel


class NoWrites:
    """Nothing is edited here: the state changes only through the services."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnly(NoWrites, admin.ModelAdmin):
    pass


class SeatInline(NoWrites, admin.TabularInline):
    model = Seat
    fields = (
        "position",
        "name",
        "team",
        "connected",
        "away",
        "forfeited",
        "place",
        "score",
    )
    readonly_fields = fields
    extra = 0

    @admin.display(description=gettext_lazy("player"))
    def name(self, seat: Seat) -> str:
        return seat_display_name(seat)


@admin.register(Table)
class TableAdmin(ReadOnly):
    list_display = (
        "pk",
        "variant",
        "mode",
        "status",
        "seq",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "mode", "variant")
    search_fields = ("=id", "seats__user__username")
    date_hierarchy = "created_at"
    exclude = ("state", "seed")  # server-only secrets: the hands and the deal
    inlines = [SeatInline]
    actions = ["cancel_tables"]

    @admin.action(
        description=gettext_lazy("Cancel the selected tables (abandoned)"),
        permissions=["view"],
    )
    def cancel_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        done = sum(
            table_cancel(table_id=pk) for pk in queryset.values_list("pk", flat=True)
        )
        skipped = queryset.count() - done
        messages.success(
            request,
            ngettext("Cancelled %(n)s table.", "Cancelled %(n)s tables.", done)
            % {"n": done},
        )
        if skipped:
            messages.warning(
                request,
                ngettext(
                    "%(n)s had already ended and was left as it was.",
                    "%(n)s had already ended and were left as they were.",
                    skipped,
                )
                % {"n": skipped},
            )


@admin.register(Seat)
class SeatAdmin(ReadOnly):
    list_display = (
        "table",
        "position",
        "user",
        "bot_level",
        "connected",
        "away",
        "forfeited",
        "place",
        "unpaid",
    )
    list_filter = ("bot_level", "forfeited", "away", "unpaid")
    search_fields = ("user__username", "=table__id")
    raw_id_fields = ("table", "user")


@admin.register(TableEvent)
class TableEventAdmin(ReadOnly):
    list_display = ("table", "seq", "seat", "actor", "created_at")
    list_filter = ("actor",)
    search_fields = ("=table__id",)
    raw_id_fields = ("table",)


@admin.register(FinishStep)
class FinishStepAdmin(ReadOnly):
    """What finished tables owe; an undone row is retried by the finish sweep."""

    list_display = ("table", "name", "created_at", "done_at", "attempts", "error")
    list_filter = ("name", ("done_at", admin.EmptyFieldListFilter))
    search_fields = ("=table__id",)
    raw_id_fields = ("table",)

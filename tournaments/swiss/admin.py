"""Swiss events in the admin: read-only, with the staff's Cancel for an event a
fault made unplayable (every entry refunded)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from games.admin import NoWrites
from tournaments.swiss.errors import SwissError
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame
from tournaments.swiss.services import swiss_staff_cancel


class SwissEntryInline(NoWrites, admin.TabularInline):
    model = SwissEntry
    fields = ("user", "joined_at", "joined_round", "withdrawn_at", "rank", "payout")
    readonly_fields = fields
    extra = 0


class SwissGameInline(NoWrites, admin.TabularInline):
    model = SwissGame
    fields = ("round", "number", "first", "second", "table", "result", "points")
    readonly_fields = fields
    extra = 0


@admin.register(SwissEvent)
class SwissEventAdmin(NoWrites, admin.ModelAdmin):
    list_display = (
        "pk",
        "name",
        "club",
        "pool",
        "entry",
        "state",
        "round",
        "starts_at",
    )
    list_filter = ("state", "pool")
    inlines = [SwissEntryInline, SwissGameInline]
    actions = ["cancel_events"]

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.change_swissevent")

    @admin.action(
        description=gettext_lazy(
            "Cancel the selected Swiss events after a fault (every entry refunded)"
        ),
        permissions=["cancel"],
    )
    def cancel_events(
        self, request: HttpRequest, queryset: QuerySet[SwissEvent]
    ) -> None:
        done = refused = 0
        for pk in queryset.values_list("pk", flat=True):
            try:
                done += swiss_staff_cancel(event_id=pk)
            except SwissError:
                refused += 1
        if done:
            self.message_user(
                request,
                ngettext(
                    "%(n)d event cancelled, its entries refunded.",
                    "%(n)d events cancelled, their entries refunded.",
                    done,
                )
                % {"n": done},
                messages.SUCCESS,
            )
        if refused:
            self.message_user(
                request,
                ngettext(
                    "%(n)d event had finished: its pot is paid out.",
                    "%(n)d events had finished: their pots are paid out.",
                    refused,
                )
                % {"n": refused},
                messages.WARNING,
            )

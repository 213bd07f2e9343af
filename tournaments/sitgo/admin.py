"""Sit-and-gos in the admin: read-only, with the staff's Cancel for an event a
fault made unplayable (every entry refunded, its live tables cancelled)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from games.admin import NoWrites
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.sitgo.services import sitgo_staff_cancel


class SitGoEntryInline(NoWrites, admin.TabularInline):
    model = SitGoEntry
    fields = ("user", "entered_at", "place", "payout")
    readonly_fields = fields
    extra = 0


class SitGoTableInline(NoWrites, admin.TabularInline):
    model = SitGoTable
    fields = ("round", "number", "table", "state", "order")
    readonly_fields = fields
    extra = 0


@admin.register(SitGo)
class SitGoAdmin(NoWrites, admin.ModelAdmin):
    list_display = (
        "pk",
        "size",
        "entry",
        "state",
        "reason",
        "seats_taken",
        "started_at",
        "closed_at",
    )
    list_filter = ("state", "size", "entry")
    inlines = [SitGoEntryInline, SitGoTableInline]
    actions = ["cancel_sitgos"]

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        """Moving coins back takes the model's change permission (superusers
        have it), though nothing here is edited by hand."""
        return request.user.has_perm("tournaments.change_sitgo")

    @admin.action(
        description=gettext_lazy(
            "Cancel the selected sit-and-gos after a fault (every entry refunded)"
        ),
        permissions=["cancel"],
    )
    def cancel_sitgos(self, request: HttpRequest, queryset: QuerySet[SitGo]) -> None:
        done = refused = 0
        for pk in queryset.values_list("pk", flat=True):
            try:
                done += sitgo_staff_cancel(sitgo_id=pk)
            except SitGoError:
                refused += 1
        messages.success(
            request,
            ngettext(
                "Cancelled %(n)s sit-and-go; its entries are refunded.",
                "Cancelled %(n)s sit-and-gos; their entries are refunded.",
                done,
            )
            % {"n": done},
        )
        if refused:
            messages.warning(
                request,
                ngettext(
                    "%(n)s had finished (its pot is paid out) and was left as it was.",
                    "%(n)s had finished (their pots are paid out) and were left as "
                    "they were.",
                    refused,
                )
                % {"n": refused},
            )

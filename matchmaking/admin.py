"""Operators' view of stake tables, and the abort that refunds a broken one."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matchmaking.errors import StakeError
from matchmaking.models import StakeReport, StakeSitter, StakeTable
from matchmaking.stakes.services import stake_cancel


@admin.register(StakeTable)
class StakeTableAdmin(admin.ModelAdmin):
    list_display = ["table", "stake", "shape", "seats_taken", "state", "reason"]
    list_filter = ["state", "stake", "shape", "reason"]
    readonly_fields = [f.name for f in StakeTable._meta.fields]
    actions = ["abort_and_refund"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=gettext_lazy("Abort and refund every entry (reason)"))
    def abort_and_refund(
        self, request: HttpRequest, queryset: QuerySet[StakeTable]
    ) -> HttpResponse | None:
        reason = (request.POST.get("reason") or "").strip()
        if "apply" not in request.POST or not reason:
            if "apply" in request.POST:
                self.message_user(request, _("Give a reason."), messages.ERROR)
            return TemplateResponse(
                request,
                "matchmaking/stakes/stake_abort.html",
                {
                    **self.admin_site.each_context(request),
                    "tables": queryset,
                    "opts": self.model._meta,
                    "action": "abort_and_refund",
                },
            )
        for row in queryset:
            try:
                done = stake_cancel(table_id=row.pk, reason="operator", text=reason)
            except StakeError as exc:
                self.message_user(request, f"{row.pk}: {exc.message}", messages.WARNING)
                continue
            if done:
                self.message_user(
                    request,
                    _("Table %(id)s cancelled and refunded.") % {"id": row.pk},
                )
        return None


@admin.register(StakeSitter)
class StakeSitterAdmin(admin.ModelAdmin):
    list_display = ["user", "stake_table", "sat_at"]
    readonly_fields = ["user", "stake_table", "sat_at"]


@admin.register(StakeReport)
class StakeReportAdmin(admin.ModelAdmin):
    """Stake tables for staff to look at: linked accounts at one table, and a seat
    that forfeited without playing to an account it had met (RULES.md §5)."""

    list_display = ["stake_table", "kind", "accounts", "created_at"]
    list_filter = ["kind"]
    readonly_fields = ["stake_table", "kind", "accounts", "created_at"]
    exclude = ["user_ids"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("Accounts"))
    def accounts(self, obj: StakeReport) -> str:
        """Linked: the linked accounts. Dumping: who forfeited, then who gained."""
        ids = [int(i) for i in obj.user_ids]
        names = dict(
            get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
        )
        return ", ".join(str(names.get(i, i)) for i in ids)

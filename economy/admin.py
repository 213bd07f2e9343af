"""The ledger in the Django admin: read-only; corrections are new transactions."""

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext

from core.requests import SignedInRequest
from economy import services
from economy.errors import EconomyError
from economy.forms import CorrectionForm
from economy.models import Account, Boost, Entry, Transaction, XpAward


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("account", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("key", "kind", "user", "state", "balance", "created_at")
    list_filter = ("kind", "state")
    search_fields = ("key", "user__username", "table_ref")


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "key", "kind", "table_ref", "operator", "created_at")
    list_filter = ("kind",)
    search_fields = ("key", "table_ref")
    inlines = [EntryInline]
    change_list_template = "economy/admin/transaction_changelist.html"

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "correct/",
                self.admin_site.admin_view(self.correct_view),
                name="economy_transaction_correct",
            )
        ]
        return extra + super().get_urls()

    def correct_view(self, request: SignedInRequest) -> HttpResponse:
        """Post a correcting transaction with a reason (superusers or ledger.add)."""
        if not (
            request.user.is_superuser
            or request.user.has_perm("economy.add_transaction")
        ):
            messages.error(request, gettext("Only superusers may correct the ledger."))
            return redirect("admin:economy_transaction_changelist")
        form = CorrectionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                posted = services.ledger_correct(
                    account_id=data["account"].pk,
                    amount=data["amount"],
                    counter_account_id=data["counter_account"].pk
                    if data["counter_account"]
                    else None,
                    reason=data["reason"],
                    operator_id=request.user.pk,
                    request_key=data["nonce"],
                )
            except EconomyError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(
                    request,
                    gettext("Posted correction %(key)s.") % {"key": posted.key},
                )
                return redirect(
                    reverse("admin:economy_transaction_change", args=[posted.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Correct the ledger"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "economy/admin/correct.html", context)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("transaction", "account", "amount")
    search_fields = ("account__key", "transaction__key")


@admin.register(XpAward)
class XpAwardAdmin(ReadOnlyAdmin):
    list_display = ("key", "user", "amount", "created_at")
    search_fields = ("key", "user__username")


@admin.register(Boost)
class BoostAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "percent", "starts_at", "ends_at")
    list_filter = ("kind",)

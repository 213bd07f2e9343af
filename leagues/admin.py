"""Operators' view of the league: read-only records, and point removals with a reason.

A removal is a :class:`~leagues.models.Correction` row written by
``leagues.services.points_remove``; nothing here edits points or entries.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext_lazy as _

from leagues.errors import LeagueError
from leagues.models import Correction, Membership, PointEntry, Week
from leagues.services import points_remove


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Week)
class WeekAdmin(ReadOnlyAdmin):
    list_display = ("start", "status", "closed_at", "paid_at")


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("week", "user", "division", "group", "points", "tables", "rank")
    list_filter = ("division", "week")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "group")


@admin.register(PointEntry)
class PointEntryAdmin(ReadOnlyAdmin):
    list_display = ("table_id", "position", "user", "week", "points", "counted")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


class CorrectionForm(forms.ModelForm):
    membership = forms.ModelChoiceField(
        queryset=Membership.objects.filter(
            week__status=Week.Status.OPEN, points__gt=0, user__isnull=False
        ).select_related("user", "week"),
        label=_("Player and week"),
        help_text=_("A player with points in a week that is still open."),
        error_messages={
            "invalid_choice": _(
                "Choose a player with points in an open week; closed weeks are final."
            )
        },
    )
    reason = forms.CharField(
        widget=forms.Textarea,
        min_length=10,
        label=_("Reason"),
        help_text=_("Why the points are removed (kept with the correction)."),
    )

    class Meta:
        model = Correction
        fields = ("membership", "reason")


@admin.register(Correction)
class CorrectionAdmin(admin.ModelAdmin):
    form = CorrectionForm
    list_display = ("created_at", "membership", "points_removed", "operator", "reason")
    readonly_fields = ("points_removed", "operator", "created_at")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(
        self, request: HttpRequest, obj: Correction, form: Any, change: bool
    ) -> None:
        operator_id = request.user.pk
        if operator_id is None:  # the admin only lets signed-in staff this far
            raise PermissionDenied
        try:
            correction = points_remove(
                membership_id=obj.membership_id,
                reason=obj.reason,
                operator_id=int(operator_id),
            )
        except LeagueError as exc:  # the week closed since the form was checked
            self.message_user(request, exc.message, level=messages.ERROR)
            return
        obj.pk = correction.pk
        obj.points_removed = correction.points_removed
        obj.operator_id = correction.operator_id
        obj.created_at = correction.created_at
        obj._state.adding = False

    def response_add(
        self, request: HttpRequest, obj: Correction, post_url_continue: Any = None
    ) -> HttpResponse:
        if obj.pk is None:
            return HttpResponseRedirect(request.path)
        return super().response_add(request, obj, post_url_continue)

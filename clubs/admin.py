"""Clubs for the staff: the clubs with their members, and reports of club chat
lines (what was said, as typed and as the word filter reads it)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from clubs.models import Club, ClubLineReport, Member


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "language", "open", "created_at")
    search_fields = ("name", "slug")
    inlines = (MemberInline,)


@admin.register(ClubLineReport)
class ClubLineReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "said", "read_as", "sender", "reporter", "club")
    list_select_related = ("line__sender", "line__club", "reporter")
    readonly_fields = ("line", "reporter", "created_at")
    ordering = ("-created_at",)

    @admin.display(description="text")
    def said(self, report: ClubLineReport) -> str:
        return report.line.text or report.line.phrase

    @admin.display(description=gettext_lazy("as the filter reads it"))
    def read_as(self, report: ClubLineReport) -> str:
        return report.line.normal

    @admin.display(description="sender")
    def sender(self, report: ClubLineReport) -> str:
        return str(report.line.sender)

    @admin.display(description="club")
    def club(self, report: ClubLineReport) -> str:
        return str(report.line.club)

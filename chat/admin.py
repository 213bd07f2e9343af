"""Chat reports for the staff: what was said (as typed, and as the word filter reads
it), by whom, who reported it."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from chat.models import ChatReport


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "said", "read_as", "sender", "reporter", "table")
    list_select_related = ("line__sender", "line__table", "reporter")
    readonly_fields = ("line", "reporter", "created_at")
    ordering = ("-created_at",)

    @admin.display(description="text")
    def said(self, report: ChatReport) -> str:
        return report.line.text

    @admin.display(description=gettext_lazy("as the filter reads it"))
    def read_as(self, report: ChatReport) -> str:
        return report.line.normal

    @admin.display(description="sender")
    def sender(self, report: ChatReport) -> str:
        return str(report.line.sender)

    @admin.display(description="table")
    def table(self, report: ChatReport) -> int:
        return int(report.line.table_id)

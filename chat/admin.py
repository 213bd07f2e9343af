"""Chat reports for the staff: what was said, by whom, who reported it."""

from __future__ import annotations

from django.contrib import admin

from chat.models import ChatReport


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "said", "sender", "reporter", "table")
    list_select_related = ("line__sender", "line__table", "reporter")
    readonly_fields = ("line", "reporter", "created_at")
    ordering = ("-created_at",)

    @admin.display(description="text")
    def said(self, report: ChatReport) -> str:
        return report.line.text

    @admin.display(description="sender")
    def sender(self, report: ChatReport) -> str:
        return str(report.line.sender)

    @admin.display(description="table")
    def table(self, report: ChatReport) -> int:
        return int(report.line.table_id)

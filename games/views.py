"""Table pages: the hand history and the JSON export of a table that has ended."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from games.history import table_hands, table_log_export
from games.models import Table

ENDED = {Table.Status.FINISHED, Table.Status.CANCELLED}


def _ended_table(table_id: int) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if table.status not in ENDED:
        raise Http404("The history opens when the table has ended.")
    return table


@login_required
def table_history(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _ended_table(table_id)
    seats = table.seats.select_related("user")
    return render(
        request,
        "games/history.html",
        {"table": table, "seats": seats, "hands": table_hands(table=table)},
    )


@login_required
def table_log_json(request: HttpRequest, table_id: int) -> JsonResponse:
    table = _ended_table(table_id)
    response = JsonResponse(table_log_export(table=table))
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response

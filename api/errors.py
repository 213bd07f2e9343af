"""A refused API request: an HTTP status and words for a person."""

from __future__ import annotations

from django.http import JsonResponse

from core.refusals import Refusal


class ApiError(Refusal):
    """A request the API refuses with ``status``; nothing was changed.

    ``retry_after`` (seconds) goes into a ``Retry-After`` header (429).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(code, message)
        self.status = status
        self.retry_after = retry_after


def error_response(
    status: int, message: str, *, retry_after: int | None = None
) -> JsonResponse:
    """``{"error": message}`` with ``status`` (and ``Retry-After`` when given)."""
    response = JsonResponse({"error": message}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def api_error_response(error: ApiError) -> JsonResponse:
    return error_response(error.status, error.message, retry_after=error.retry_after)


# A service's refusal code and the HTTP status it is answered with: a request that
# cannot be right (400), one the state of things refuses (409), nothing there (404).
CONFLICT_CODES = frozenset(
    {
        "stale_seq",
        "not_your_turn",
        "not_playing",
        "not_started",
        "seeds_fixed",
        "full",
        "closed",
        "expired",
        "withdrawn",
        "accepted",
        "declined",
        "seated",
        "invited",
        "busy",
    }
)
NOT_FOUND_CODES = frozenset({"no_table", "no_invitation", "unknown"})


def refusal_response(refusal: Refusal) -> JsonResponse:
    """A service's refusal as the API answers it."""
    if isinstance(refusal, ApiError):
        return api_error_response(refusal)
    if refusal.code in NOT_FOUND_CODES:
        return error_response(404, refusal.message)
    if refusal.code in CONFLICT_CODES:
        return error_response(409, refusal.message)
    return error_response(400, refusal.message)

"""allauth's account adapter: every e-mail in its recipient's language.

allauth renders its e-mails (password reset, address confirmation) with its own
translated templates in whatever language is active, which is the language of the
browser that asked. The mail is for the account's owner, who may have chosen
another language on their profile: that choice wins when the address belongs to
a player who made one; otherwise the asking browser's language stays.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.utils import translation

from accounts.language import profile_language


def recipient_language(*, email: str, user: Any = None) -> str:
    """The language to write to ``email`` in (its player's choice, else the
    current language)."""
    if user is None or not getattr(user, "pk", None):
        user = get_user_model().objects.filter(email__iexact=email).first()
    chosen = profile_language(user) if user is not None else None
    return chosen or translation.get_language() or "en"


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(
        self, template_prefix: str, email: str, context: dict[str, Any]
    ) -> None:
        language = recipient_language(email=email, user=context.get("user"))
        with translation.override(language):
            super().send_mail(template_prefix, email, context)

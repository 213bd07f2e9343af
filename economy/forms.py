"""The operator's correction form (Django admin)."""

import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from economy.models import Account


class CorrectionForm(forms.Form):
    account = forms.ModelChoiceField(
        label=_("Account"),
        queryset=Account.objects.order_by("kind", "key"),
        help_text=_("The account to correct (a wallet or a pot's escrow)."),
    )
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_("Positive credits the account, negative debits it (whole coins)."),
    )
    counter_account = forms.ModelChoiceField(
        label=_("Counter account"),
        queryset=Account.objects.order_by("kind", "key"),
        required=False,
        help_text=_("Where the coins come from or go to; the mint if left empty."),
    )
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3})
    )
    nonce = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("nonce", secrets.token_urlsafe(16))

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(
                _("A correction of zero coins changes nothing.")
            )
        return amount

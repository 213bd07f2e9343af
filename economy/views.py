"""Wallet and shop pages: thin shells around the selectors and services."""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from economy import conf, selectors, services
from economy.errors import EconomyError
from economy.player_messages import bonus_refusal, item_name, shop_refusal


@login_required
def wallet(request: SignedInRequest) -> HttpResponse:
    user_id = request.user.pk
    summary = selectors.wallet_summary(user_id=user_id)
    return render(
        request,
        "economy/wallet.html",
        {
            "balance": summary.balance,
            "history": selectors.wallet_history(
                user_id=user_id, page=request.GET.get("page", 1), lines=summary.lines
            ),
            "bonus_claimed": summary.bonus_claimed,
            "bonus_amount": conf.daily_bonus(),
            "progress": summary.progress,
            "boosts": selectors.boosts_active(user_id=user_id),
        },
    )


@login_required
@require_POST
def daily_bonus(request: SignedInRequest) -> HttpResponse:
    try:
        posted = services.daily_bonus_claim(user_id=request.user.pk)
    except EconomyError as exc:
        messages.error(request, bonus_refusal(exc))
    else:
        amount = posted.entries.get(account__user_id=request.user.pk).amount
        messages.success(
            request,
            ngettext("Daily bonus: +%(n)s coin.", "Daily bonus: +%(n)s coins.", amount)
            % {"n": amount},
        )
    return redirect("wallet")


@login_required
def shop(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "economy/shop.html",
        {
            "items": conf.shop_items().values(),
            "balance": selectors.wallet_balance(user_id=request.user.pk),
            "boosts": selectors.boosts_active(user_id=request.user.pk),
            # A fresh nonce per page view: a double submit buys once.
            "nonce": secrets.token_urlsafe(16),
        },
    )


@login_required
@require_POST
def shop_buy(request: SignedInRequest) -> HttpResponse:
    item = request.POST.get("item", "")
    try:
        boost = services.shop_buy(
            user_id=request.user.pk,
            item=item,
            request_key=request.POST.get("nonce", ""),
        )
    except EconomyError as exc:
        balance = selectors.wallet_balance(user_id=request.user.pk)
        messages.error(request, shop_refusal(exc, item=item, balance=balance))
    else:
        messages.success(
            request,
            _("Bought: %(item)s, active until %(end)s UTC.")
            % {
                "item": item_name(boost.kind),
                "end": formats.date_format(boost.ends_at, "SHORT_DATETIME_FORMAT"),
            },
        )
    return redirect("shop")

"""Wallet, shop and operator pages of the economy."""

from django.urls import path

from economy import views

urlpatterns = [
    path("wallet/", views.wallet, name="wallet"),
    path("wallet/daily-bonus/", views.daily_bonus, name="wallet_daily_bonus"),
    path("shop/", views.shop, name="shop"),
    path("shop/buy/", views.shop_buy, name="shop_buy"),
]

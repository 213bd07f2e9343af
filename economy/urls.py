"""Wallet, shop and operator pages of the economy."""

urlpatterns: list[object] = []

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # allauth's app is "Accounts" in the admin already.
    verbose_name = _("Players online")

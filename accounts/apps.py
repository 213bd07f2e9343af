from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # allauth's app is "Accounts" in the admin already.
    verbose_name = _("Players online")

    def ready(self) -> None:
        from accounts import language  # noqa: F401  (connects the sign-in receiver)
        from realtime.auth import identity_receivers_connect

        identity_receivers_connect()

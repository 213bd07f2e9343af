"""Signal receivers: a new player gets a wallet and the sign-up grant."""

from allauth.account.signals import user_signed_up
from django.contrib.auth.base_user import AbstractBaseUser
from django.dispatch import receiver
from django.http import HttpRequest

from economy.wallets import wallet_grant_signup


@receiver(user_signed_up, dispatch_uid="economy.signup_grant")
def grant_on_signup(
    sender: object, request: HttpRequest, user: AbstractBaseUser, **kwargs: object
) -> None:
    wallet_grant_signup(user_id=user.pk)

"""Demo accounts for a fresh embedded install."""

from allauth.account.models import EmailAddress
from allauth.account.signals import user_signed_up
from django.contrib.auth import get_user_model

DEMO_PASSWORD = "play-dominoes-1"
DEMO_ACCOUNTS = [
    ("admin", DEMO_PASSWORD, True),
    ("alice", DEMO_PASSWORD, False),
    ("bob", DEMO_PASSWORD, False),
    ("carol", DEMO_PASSWORD, False),
]


def demo_accounts_create() -> None:
    """Create the demo accounts as if each had signed up: whatever a sign-up gives
    a new player (the economy's sign-up grant) comes with ``user_signed_up``."""
    User = get_user_model()
    for username, password, staff in DEMO_ACCOUNTS:
        email = f"{username}@example.com"
        user = User.objects.create_user(
            username=username,
            email=email,
            password=password,
            is_staff=staff,
            is_superuser=staff,
        )
        EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
        user_signed_up.send(sender=User, request=None, user=user)

"""Username rules: the public handle players invite each other by."""

from django.core.validators import MaxLengthValidator, RegexValidator
from django.utils.translation import gettext_lazy as _

USERNAME_MIN = 3
USERNAME_MAX = 20

username_validators = [
    RegexValidator(
        r"^[A-Za-z0-9_-]+\Z",
        _("Usernames may contain only letters, digits, '_' and '-'."),
        code="invalid_username",
    ),
    MaxLengthValidator(USERNAME_MAX),
]

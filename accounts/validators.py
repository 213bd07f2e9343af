"""Username rules: the public handle players invite each other by."""

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, RegexValidator
from django.utils.translation import gettext_lazy as _

from core.names import name_impersonates, name_offends

USERNAME_MIN = 3
USERNAME_MAX = 20


def public_name_validator(value: str) -> None:
    """Refuse a name that passes itself off as the staff or that the word filter
    masks (``core.names``)."""
    if name_impersonates(value):
        raise ValidationError(
            _("That name belongs to the site's staff; choose another."),
            code="staff_name",
        )
    if name_offends(value):
        raise ValidationError(
            _("That name holds a word the site does not allow; choose another."),
            code="offensive_name",
        )


username_validators = [
    RegexValidator(
        r"^[A-Za-z0-9_-]+\Z",
        _("Usernames may contain only letters, digits, '_' and '-'."),
        code="invalid_username",
    ),
    MaxLengthValidator(USERNAME_MAX),
    public_name_validator,
]

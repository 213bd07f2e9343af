"""Strings of django-allauth and Django that our pages and e-mails show, copied
here word for word so that ``makemessages`` puts them in our own catalogs.

Our catalogs take precedence over the libraries' ones, so every language the site
speaks reads these in the same words as the rest of the site, including the
languages the libraries do not ship (Django has no Filipino; allauth has no Malay,
Vietnamese, Hindi or Filipino). Nothing imports this module: it exists for the
extraction. ``tests/i18n/test_borrowed_strings.py`` checks that each is still a
msgid of its library and that every catalog translates it.
"""

# ruff: noqa: E501 (each string is the library's msgid, word for word)
from django.utils.translation import gettext_noop


def pgettext_noop(context: str, message: str) -> str:
    """A message with its context, marked for extraction (``makemessages`` reads
    this keyword): the library asks for it with ``pgettext``."""
    return message


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """A plural marked for extraction (``makemessages`` reads this keyword)."""
    return singular, plural


# (library, msgid)
BORROWED = (
    ("allauth", gettext_noop("Email Addresses")),
    (
        "allauth",
        gettext_noop("The following email addresses are associated with your account:"),
    ),
    ("allauth", gettext_noop("Verified")),
    ("allauth", gettext_noop("Unverified")),
    ("allauth", gettext_noop("Primary")),
    ("allauth", gettext_noop("Make Primary")),
    ("allauth", gettext_noop("Re-send Verification")),
    ("allauth", gettext_noop("Remove")),
    ("allauth", gettext_noop("Add Email Address")),
    ("allauth", gettext_noop("Add Email")),
    (
        "allauth",
        gettext_noop("Do you really want to remove the selected email address?"),
    ),
    ("allauth", gettext_noop("Warning:")),
    (
        "allauth",
        gettext_noop(
            "You currently do not have any email address set up. You should really add an email address so you can receive notifications, reset your password, etc."
        ),
    ),
    ("allauth", gettext_noop("Your primary email address must be verified.")),
    (
        "allauth",
        gettext_noop("You cannot remove your primary email address (%(email)s)."),
    ),
    ("allauth", gettext_noop("Confirmation email sent to %(email)s.")),
    ("allauth", gettext_noop("You have confirmed %(email)s.")),
    ("allauth", gettext_noop("Removed email address %(email)s.")),
    ("allauth", gettext_noop("Primary email address set.")),
    (
        "allauth",
        gettext_noop(
            "Unable to confirm %(email)s because it is already confirmed by a different account."
        ),
    ),
    ("allauth", gettext_noop("Note")),
    ("allauth", gettext_noop("You are already logged in as %(user_display)s.")),
    ("allauth", gettext_noop("This account is currently inactive.")),
    (
        "allauth",
        gettext_noop(
            "The email address and/or password you specified are not correct."
        ),
    ),
    ("allauth", gettext_noop("A user is already registered with this email address.")),
    ("allauth", gettext_noop("Please type your current password.")),
    ("allauth", gettext_noop("Incorrect password.")),
    ("allauth", gettext_noop("Invalid or expired key.")),
    ("allauth", gettext_noop("Invalid login.")),
    ("allauth", gettext_noop("The password reset token was invalid.")),
    ("allauth", gettext_noop("Too many failed login attempts. Try again later.")),
    ("allauth", gettext_noop("The email address is not assigned to any user account.")),
    ("allauth", gettext_noop("Username can not be used. Please use other username.")),
    (
        "allauth",
        gettext_noop("The username and/or password you specified are not correct."),
    ),
    ("allauth", gettext_noop("The new value must be different from the current one.")),
    ("allauth", gettext_noop("Be patient, you are sending too many requests.")),
    ("allauth", gettext_noop("Email")),
    ("allauth", gettext_noop("Email address")),
    ("allauth", gettext_noop("You must type the same password each time.")),
    ("allauth", gettext_noop("Password")),
    ("allauth", gettext_noop("Remember Me")),
    ("allauth", gettext_noop("Username")),
    ("allauth", gettext_noop("Username or email")),
    ("allauth", gettext_noop("Password (again)")),
    ("allauth", gettext_noop("Current Password")),
    ("allauth", gettext_noop("New Password")),
    ("allauth", gettext_noop("New Password (again)")),
    ("allauth", gettext_noop("Cancel")),
    ("allauth", gettext_noop("Password Reset")),
    ("allauth", gettext_noop("Hello from %(site_name)s!")),
    ("allauth", gettext_noop("Thank you for using %(site_name)s!\n%(site_domain)s")),
    (
        "allauth",
        gettext_noop(
            "This mail can be safely ignored if you did not initiate this action."
        ),
    ),
    ("allauth", gettext_noop("Your password has been changed.")),
    ("allauth", gettext_noop("Password Changed")),
    ("allauth", gettext_noop("In case you forgot, your username is %(username)s.")),
    ("allauth", gettext_noop("Password Reset Email")),
    ("allauth", gettext_noop("Your password has been reset.")),
    ("allauth", gettext_noop("Sign Out")),
    ("allauth", gettext_noop("Are you sure you want to sign out?")),
    ("allauth", gettext_noop("Password successfully changed.")),
    ("allauth", gettext_noop("Change Password")),
    ("allauth", gettext_noop("Reset My Password")),
    (
        "allauth",
        gettext_noop(
            "Please contact us if you have any trouble resetting your password."
        ),
    ),
    ("allauth", gettext_noop("Bad Token")),
    ("allauth", gettext_noop("Your password is now changed.")),
    ("allauth", gettext_noop("Forgot your password?")),
    ("allauth", gettext_noop("Set Password")),
    ("allauth", gettext_noop("Password successfully set.")),
    (
        "allauth",
        gettext_noop(
            "You're receiving this email because you or someone else has requested a password reset for your user account.\nIt can be safely ignored if you did not request a password reset. Click the link below to reset your password."
        ),
    ),
    (
        "allauth",
        gettext_noop(
            "Forgotten your password? Enter your email address below, and we'll send you an email allowing you to reset it."
        ),
    ),
    (
        "allauth",
        gettext_noop(
            "We have sent you an email. If you have not received it please check your spam folder. Otherwise contact us if you do not receive it in a few minutes."
        ),
    ),
    (
        "allauth",
        gettext_noop(
            'The password reset link was invalid, possibly because it has already been used.  Please request a <a href="%(passwd_reset_url)s">new password reset</a>.'
        ),
    ),
    ("django", gettext_noop("This field is required.")),
    ("django", gettext_noop("Enter a valid email address.")),
    ("django.contrib.auth", gettext_noop("This password is too common.")),
    ("django.contrib.auth", gettext_noop("This password is entirely numeric.")),
    (
        "django.contrib.auth",
        gettext_noop(
            "Your password can’t be too similar to your other personal information."
        ),
    ),
    (
        "django.contrib.auth",
        gettext_noop("Your password can’t be a commonly used password."),
    ),
    ("django.contrib.auth", gettext_noop("Your password can’t be entirely numeric.")),
    (
        "django.contrib.auth",
        gettext_noop("The password is too similar to the %(verbose_name)s."),
    ),
    ("django.contrib.auth", gettext_noop("The two password fields didn’t match.")),
)
# (library, (msgctxt, msgid))
BORROWED_WITH_CONTEXT = (
    ("allauth", ("field label", pgettext_noop("field label", "Login"))),
)
# (library, (msgid, msgid_plural))
BORROWED_PLURALS = (
    # The spans of Django's ``timeuntil``/``timesince`` (the league's week).
    (
        "django",
        ngettext_noop("%(num)d year", "%(num)d years"),
    ),
    (
        "django",
        ngettext_noop("%(num)d month", "%(num)d months"),
    ),
    (
        "django",
        ngettext_noop("%(num)d week", "%(num)d weeks"),
    ),
    (
        "django",
        ngettext_noop("%(num)d day", "%(num)d days"),
    ),
    (
        "django",
        ngettext_noop("%(num)d hour", "%(num)d hours"),
    ),
    (
        "django",
        ngettext_noop("%(num)d minute", "%(num)d minutes"),
    ),
    (
        "django",
        ngettext_noop(
            "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
            "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        ),
    ),
    (
        "django.contrib.auth",
        ngettext_noop(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
        ),
    ),
    (
        "django.contrib.auth",
        ngettext_noop(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
        ),
    ),
)

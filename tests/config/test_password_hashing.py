"""Production settings hash passwords with Django's real PBKDF2; the test process's
fast hasher writes hashes that the real one verifies (servers the tests start)."""

from django.conf import global_settings, settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password

from config import settings as production


def test_production_hashes_with_the_real_pbkdf2():
    hashers = getattr(production, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert PBKDF2PasswordHasher.iterations >= 600_000


def test_a_fast_hash_verifies_with_the_real_hasher():
    assert settings.PASSWORD_HASHERS[0].endswith("FastPBKDF2PasswordHasher")
    encoded = make_password("a-Long-pass-42")
    assert encoded.startswith("pbkdf2_sha256$1000$")
    assert PBKDF2PasswordHasher().verify("a-Long-pass-42", encoded)
    assert not PBKDF2PasswordHasher().verify("wrong", encoded)

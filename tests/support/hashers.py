"""A fast password hasher for the test process only.

Django's PBKDF2 runs a million iterations: about 0.6 s of CPU for every user a test
makes. This one writes the same ``pbkdf2_sha256`` format with few iterations; the
iteration count is part of each stored hash, so servers the tests start (on the
real hashers) still verify these passwords.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class FastPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000

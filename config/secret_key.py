"""The ``SECRET_KEY``: from the environment, or generated once and kept in a file.

Read by ``config.settings`` only; nothing here imports Django's settings.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

# Keys published in this repository (an earlier default, the example environment
# file): anyone can sign sessions and password-reset links with them.
PUBLISHED_KEYS = frozenset(
    {
        "embedded-default-insecure-key-change-me-in-production",
        "change-me-to-a-long-random-string",
    }
)


def secret_key_resolve(*, key: str, path: Path, debug: bool) -> str:
    """The key to sign with: ``key`` if set, else the one kept at ``path``.

    Raises ``ImproperlyConfigured`` for a published key while ``debug`` is off,
    and when no key is given and none can be kept at ``path``.
    """
    if key:
        if key in PUBLISHED_KEYS and not debug:
            raise ImproperlyConfigured(
                "SECRET_KEY is a key published in this repository: set a long "
                "random one (python -c 'import secrets; "
                "print(secrets.token_urlsafe(50))')."
            )
        return key
    try:
        return secret_key_kept(path)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"SECRET_KEY is not set and no key can be kept in {path} ({exc}): set "
            "SECRET_KEY, or SECRET_KEY_FILE to a writable path."
        ) from exc


def secret_key_kept(path: Path) -> str:
    """The key stored at ``path``, generated and stored (mode 0600) if missing.

    Several processes may start at once: each writes its own candidate to a
    private temporary file and links it into place, which fails if another got
    there first; everyone then reads the one file that won.
    """
    if not path.exists():
        candidate = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(50) + "\n")
            with contextlib.suppress(FileExistsError):  # another process won
                os.link(candidate, path)
        finally:
            candidate.unlink(missing_ok=True)
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable key: delete it to have a new one generated."
        )
    return key

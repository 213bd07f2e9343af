"""The platform's audit: the ledger, every finish and every stake pot, together,
and the stake tables where a seat fed an acquaintance without playing.

Each part lives with the app that owns its invariants (``economy.audit``,
``games.audit``, ``matchmaking.audit``, ``tournaments.*.audit``); this runs them
all, reports breaches (CRITICAL log lines, a mail to the admins when configured)
and keeps the last result in the cache for ``/metrics``. Beat runs it hourly;
``manage.py finish_audit`` runs it by hand.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache

from economy import conf as economy_conf
from economy.audit import ledger_audit
from games.audit import finish_audit
from matchmaking.audit import stake_pots_audit, unearned_minting_audit
from matchmaking.stakes.suspects import dumping_audit
from tournaments.arenas.audit import arena_prizes_audit
from tournaments.sitgo.audit import sitgo_minting_audit, sitgo_pots_audit
from tournaments.swiss.audit import swiss_minting_audit, swiss_pots_audit

logger = logging.getLogger("ops.audit")

LAST_KEY = "ops:audit:last"
LAST_TTL = 7 * 24 * 3600


@dataclass(frozen=True)
class AuditPart:
    name: str
    run: Callable[[], list[str]]


def minting_audit() -> list[str]:
    """Nothing minted for a player who did not earn it (RULES.md §5): a table's
    rewards, an arena's prizes, and no prize at all in a sit-and-go or a Swiss
    event."""
    return [
        *unearned_minting_audit(),
        *arena_prizes_audit(),
        *sitgo_minting_audit(),
        *swiss_minting_audit(),
    ]


PARTS = (
    AuditPart("ledger", lambda: [str(b) for b in ledger_audit()]),
    AuditPart("finish", finish_audit),
    AuditPart("stakes", stake_pots_audit),
    AuditPart("sitgo", sitgo_pots_audit),
    AuditPart("swiss", swiss_pots_audit),
    AuditPart("minting", minting_audit),
    AuditPart("dumping", dumping_audit),
)


def audit_run() -> dict[str, list[str]]:
    """Run every part; return each part's breaches (empty lists when sound)."""
    found = {part.name: part.run() for part in PARTS}
    breaches = [line for lines in found.values() for line in lines]
    for line in breaches:
        logger.critical("AUDIT BREACH %s", line)
    if breaches and economy_conf.audit_alert_email():
        from django.core.mail import mail_admins

        mail_admins(
            f"Audit: {len(breaches)} breach(es)",
            "\n".join(breaches),
            fail_silently=True,
        )
    cache.set(
        LAST_KEY,
        {"at": time.time(), "breaches": {k: len(v) for k, v in found.items()}},
        LAST_TTL,
    )
    if not breaches:
        logger.info("audit: no breach")
    return found


def audit_last() -> dict[str, object] | None:
    """The last run's time and breach counts per part, if any ran recently."""
    last: dict[str, object] | None = cache.get(LAST_KEY)
    return last

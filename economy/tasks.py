"""Periodic work of the economy: thin shells around services."""

import logging

from celery import shared_task

from economy.audit import ledger_audit as audit_run

logger = logging.getLogger("economy.audit")


def audit_report() -> list[str]:
    """Run the audit; log every breach at CRITICAL and mail the admins if any."""
    from django.core.mail import mail_admins

    from economy import conf

    breaches = [str(b) for b in audit_run()]
    for line in breaches:
        logger.critical("LEDGER BREACH %s", line)
    if breaches and conf.audit_alert_email():
        mail_admins(
            f"Ledger audit: {len(breaches)} breach(es)",
            "\n".join(breaches),
            fail_silently=True,
        )
    if not breaches:
        logger.info("ledger audit: no breach")
    return breaches


@shared_task(name="economy.ledger_audit", ignore_result=True)
def ledger_audit() -> int:
    """Check every ledger invariant; return the number of breaches."""
    return len(audit_report())

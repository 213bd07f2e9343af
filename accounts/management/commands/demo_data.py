"""Create demo accounts on an empty database and print their passwords."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.demo import DEMO_ACCOUNTS, demo_accounts_create


class Command(BaseCommand):
    help = "Create a few demo accounts (only when there are no accounts yet)."

    def handle(self, *args: object, **options: object) -> None:
        if get_user_model().objects.exists():
            self.stdout.write("Accounts exist already; no demo data created.")
            return
        with transaction.atomic():
            demo_accounts_create()
        self.stdout.write(self.style.SUCCESS("Demo accounts (username / password):"))
        for username, password, staff in DEMO_ACCOUNTS:
            role = " (staff: /admin/)" if staff else ""
            self.stdout.write(f"  {username:<8} {password}{role}")

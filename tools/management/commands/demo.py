from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.module_loading import import_string

from tools import demo


class Command(BaseCommand):
    help = "Create the demo user (demo/demo) and demo data. Idempotent: running it again changes nothing."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="run even with DEBUG off (never on a real site)")

    def handle(self, *args, force=False, **options):
        if not settings.DEBUG and not force:
            raise CommandError("Refusing to create demo data with DEBUG off; pass --force if you mean it.")
        with transaction.atomic():
            user = demo.demo_user()
            for step in demo.STEPS:
                import_string(step)(user=user, stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS(f"Demo ready: log in as {demo.DEMO_USERNAME} / {demo.DEMO_PASSWORD}"))

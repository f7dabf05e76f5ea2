"""``manage.py load_content``: load the rules data files into the content tables (see content.loader)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from content.loader import DATA_DIR, ContentFileError, load_content


class Command(BaseCommand):
    help = "Load rulebook/data/<edition>/*.json into the content tables: upsert by slug, all or nothing."

    def add_arguments(self, parser):
        parser.add_argument("--data-dir", type=Path, default=DATA_DIR, help="Folder holding one folder per edition.")

    def handle(self, *args, data_dir: Path, **options):
        try:
            report = load_content(data_dir=data_dir)
        except ContentFileError as error:
            raise CommandError(f"Nothing was loaded: {error}") from error
        for line in report.lines():
            self.stdout.write(line)
        self.stdout.write(
            self.style.SUCCESS("Content loaded." if report.changed_anything else "Content already up to date.")
        )

from django.apps import AppConfig


class SharingConfig(AppConfig):
    name = "sharing"
    verbose_name = "Read-only links"

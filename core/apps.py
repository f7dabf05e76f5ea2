from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Core"

    def ready(self):
        from core import accounts  # noqa: F401  (connects the failed-login slowdown)

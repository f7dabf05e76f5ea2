from django.apps import AppConfig


class GangsConfig(AppConfig):
    name = "gangs"
    verbose_name = "Gangs"

    def ready(self):
        from gangs import cache

        cache.connect()

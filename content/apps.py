from django.apps import AppConfig


class ContentConfig(AppConfig):
    name = "content"
    verbose_name = "Game content"

    def ready(self):
        from content import versioning

        versioning.connect()

from django.apps import AppConfig


class GangsConfig(AppConfig):
    name = "gangs"
    verbose_name = "Gangs"

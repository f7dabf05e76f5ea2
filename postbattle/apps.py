from django.apps import AppConfig


class PostbattleConfig(AppConfig):
    name = "postbattle"
    verbose_name = "Post-battle sequence"

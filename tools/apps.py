from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """The top floor: what is made from every app at once (the home page's to-do list, a campaign's export and
    import, the demo data, the machine-played campaigns and the bench). Nothing below imports it."""

    name = "tools"
    verbose_name = "Tools"

    def ready(self):
        from tools.campaign_exchange import background  # noqa: F401  (registers the large campaign import)

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self):
        from gangs import cache

        # A gang's page and printed roster show the campaign it plays in and the territories it holds.
        cache.follow(self.get_model("CampaignGang"), "gang")
        cache.follow(self.get_model("CampaignTerritory"), "holder")

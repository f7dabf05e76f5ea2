from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "Campaigns"

    def ready(self):
        from campaigns import cache as campaign_cache
        from campaigns import gang_facts, selectors
        from gangs import cache, campaign_checks, campaign_facts

        # A campaign's house rules refuse some purchases and hires; the gangs app asks without importing campaigns.
        campaign_checks.on_purchase(selectors.purchase_refusal)
        campaign_checks.on_hire(selectors.hire_refusal)
        campaign_checks.on_banned_items(selectors.banned_items_expression)
        # Whether a gang plays in a campaign, who arbitrates it, its battles and territories: asked the same way.
        campaign_facts.register(gang_facts.FACTS)

        # A gang's page shows the campaign it plays in (its name, who arbitrates it), the territories it holds and
        # its coming battles (a Hired Gun is hired for one): each moves the gang's version (gangs.cache).
        cache.follow(self.get_model("CampaignGang"), "gang")
        cache.follow(self.get_model("CampaignTerritory"), "holder")
        cache.follow(self.get_model("Battle"), "attacker")
        cache.follow(self.get_model("Battle"), "defender")
        cache.follow_campaign(self.get_model("Campaign"), None)
        cache.follow_campaign(self.get_model("CampaignArbitrator"), "campaign")
        # What the house rules ban leaves a gang's buy lists (and its hire form the Hangers-on it may hire).
        cache.follow_campaign(self.get_model("HouseRules"), "campaign")

        # The campaign page's data is cached under the campaign's version (campaigns.cache).
        campaign_cache.connect()

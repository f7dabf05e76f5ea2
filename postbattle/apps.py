from django.apps import AppConfig


class PostbattleConfig(AppConfig):
    name = "postbattle"
    verbose_name = "Post-battle sequence"

    def ready(self):
        from campaigns import cache

        # The post-battle list shows each battle's sequences (started, in progress at a step, applied, reverted)
        # and is cached under its campaigns' versions (postbattle.selectors.battle_list_key): every sequence
        # written moves its battle's campaign.
        cache.follow_battle(self.get_model("Sequence"), "battle")

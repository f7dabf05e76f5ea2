from django.contrib import admin

from campaigns.models import (
    Battle,
    BattleFighterResult,
    Campaign,
    CampaignArbitrator,
    CampaignGang,
    CampaignTerritory,
    Cycle,
    StandingSnapshot,
)


class ArbitratorInline(admin.TabularInline):
    model = CampaignArbitrator
    extra = 0
    raw_id_fields = ["user"]


class MembershipInline(admin.TabularInline):
    model = CampaignGang
    extra = 0
    raw_id_fields = ["gang"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "edition", "status", "cycle", "created_at"]
    list_filter = ["edition", "status"]
    search_fields = ["name"]
    inlines = [ArbitratorInline, MembershipInline]


@admin.register(Cycle)
class CycleAdmin(admin.ModelAdmin):
    list_display = ["campaign", "number", "started_at"]


@admin.register(CampaignTerritory)
class CampaignTerritoryAdmin(admin.ModelAdmin):
    list_display = ["territory", "campaign", "holder", "is_home_settlement"]
    list_filter = ["campaign"]


class FighterResultInline(admin.TabularInline):
    model = BattleFighterResult
    extra = 0
    raw_id_fields = ["fighter", "caused_by"]


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "cycle", "scenario_name", "status", "winner", "is_draw"]
    list_filter = ["status", "campaign"]
    inlines = [FighterResultInline]


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    list_display = ["gang", "campaign", "rating", "reputation", "reason", "taken_at"]

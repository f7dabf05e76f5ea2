from django.contrib import admin

from battles.models import BattleAction, BattleFighter, BattleSession


class BattleFighterInline(admin.TabularInline):
    model = BattleFighter
    extra = 0
    fields = ("side", "name", "wounds_left", "flesh_wounds", "condition", "prone", "broken", "ready", "engaged")
    readonly_fields = ("name",)


@admin.register(BattleSession)
class BattleSessionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "edition", "status", "round", "phase", "created_at")
    list_filter = ("edition", "status")
    raw_id_fields = ("gang_a", "gang_b", "player_a", "player_b", "campaign_battle", "created_by")
    inlines = [BattleFighterInline]


@admin.register(BattleAction)
class BattleActionAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "kind", "summary", "undone", "created_at")
    list_filter = ("kind", "undone")
    raw_id_fields = ("session", "actor", "fighter", "target")

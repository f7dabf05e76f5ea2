"""Admin for gangs: look, search and fix names or notes.

The Stash, Reputation and experience are read-only here: they change only through ledger entries
(``gangs.ledger.ledger_record``), so an arbitrator corrects them with an override on the gang page.
The ledger itself is append-only and read-only.
"""

from django.contrib import admin

from gangs.models import Fighter, Gang, LedgerEntry, Purchase


class FighterInline(admin.TabularInline):
    model = Fighter
    fk_name = "gang"
    fields = ("name", "fighter_type", "status", "cost", "experience", "kills")
    readonly_fields = ("fighter_type", "cost", "experience")
    extra = 0
    show_change_link = True


@admin.register(Gang)
class GangAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "edition", "house", "stash", "reputation")
    list_filter = ("edition", "house")
    search_fields = ("name", "owner__username")
    readonly_fields = ("owner", "edition", "house", "stash", "reputation", "created_at", "updated_at")
    inlines = [FighterInline]


@admin.register(Fighter)
class FighterAdmin(admin.ModelAdmin):
    list_display = ("name", "gang", "fighter_type", "status", "experience")
    list_filter = ("status", "gang__edition")
    search_fields = ("name", "gang__name")
    readonly_fields = ("gang", "fighter_type", "cost", "base_stats", "experience", "starting_experience", "captured_by")


@admin.register(Purchase)
class PurchaseAdmin(admin.ModelAdmin):
    list_display = ("equipment", "gang", "fighter", "price")
    search_fields = ("equipment__name", "gang__name")
    readonly_fields = ("gang", "equipment", "price")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "gang", "fighter", "kind", "credits", "experience", "reputation", "description")
    list_filter = ("kind",)
    search_fields = ("description", "reason", "gang__name")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

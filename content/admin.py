"""Admin for the content library: arbitrators correct or add content here.

Rows added here are house rules (``is_official`` off by default), which ``load_content`` never
changes or deletes. Editing an official row is possible but the next load puts the file's values
back: to change an official number for a club, switch it to unofficial first.
"""

from django.contrib import admin

from content.models import (
    Equipment,
    FighterType,
    FighterTypeEquipment,
    House,
    Rule,
    Skill,
    SkillAccess,
    SkillTable,
    Territory,
    WeaponProfile,
)

RECORD_FILTERS = ("edition", "is_official", "is_active")
RECORD_SEARCH = ("name", "slug", "notes")


class ContentRecordAdmin(admin.ModelAdmin):
    list_filter = RECORD_FILTERS
    search_fields = RECORD_SEARCH
    list_display = ("name", "edition", "slug", "is_official", "is_active")
    prepopulated_fields = {"slug": ("name",)}


class FighterTypeInline(admin.TabularInline):
    """A house's fighters at a glance; edit or add them on the fighter type page (they need a full stat line)."""

    model = FighterType
    fields = ("name", "slug", "category", "cost", "is_official", "is_active")
    readonly_fields = fields
    show_change_link = True
    can_delete = False
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(House)
class HouseAdmin(ContentRecordAdmin):
    list_display = ("name", "edition", "slug", "starting_credits", "is_official", "is_active")
    inlines = [FighterTypeInline]


class SkillAccessInline(admin.TabularInline):
    model = SkillAccess
    autocomplete_fields = ("table",)
    extra = 0


class FighterTypeEquipmentInline(admin.TabularInline):
    model = FighterTypeEquipment
    autocomplete_fields = ("equipment",)
    extra = 0


@admin.register(FighterType)
class FighterTypeAdmin(ContentRecordAdmin):
    list_display = ("name", "house", "edition", "category", "cost", "is_official", "is_active")
    list_filter = ("edition", "house", "category", "is_official", "is_active")
    list_select_related = ("house",)
    search_fields = (*RECORD_SEARCH, "house__name")
    inlines = [SkillAccessInline, FighterTypeEquipmentInline]


class WeaponProfileInline(admin.TabularInline):
    model = WeaponProfile
    extra = 0


class OnHouseListFilter(admin.SimpleListFilter):
    """Items on a given house's equipment lists."""

    title = "house list"
    parameter_name = "house"

    def lookups(self, request, model_admin):
        return [(house.pk, str(house)) for house in House.objects.order_by("edition", "name")]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(fighter_type_lists__fighter_type__house=self.value()).distinct()
        return queryset


@admin.register(Equipment)
class EquipmentAdmin(ContentRecordAdmin):
    list_display = ("name", "edition", "kind", "category", "cost", "rarity", "is_official", "is_active")
    list_filter = ("edition", "kind", "category", OnHouseListFilter, "is_official", "is_active")
    inlines = [WeaponProfileInline]


@admin.register(WeaponProfile)
class WeaponProfileAdmin(admin.ModelAdmin):
    list_display = ("__str__", "short_range", "long_range", "range_code", "strength", "damage", "ammo")
    list_filter = ("equipment__edition", "equipment__category")
    list_select_related = ("equipment",)
    search_fields = ("equipment__name", "name")
    autocomplete_fields = ("equipment",)


@admin.register(FighterTypeEquipment)
class FighterTypeEquipmentAdmin(admin.ModelAdmin):
    list_display = ("fighter_type", "equipment", "cost", "is_official")
    list_filter = ("fighter_type__edition", "fighter_type__house", "is_official")
    list_select_related = ("fighter_type__house", "equipment")
    search_fields = ("fighter_type__name", "equipment__name")
    autocomplete_fields = ("fighter_type", "equipment")


class SkillInline(admin.TabularInline):
    model = Skill
    fields = ("name", "slug", "order", "is_official", "is_active")
    extra = 0


@admin.register(SkillTable)
class SkillTableAdmin(ContentRecordAdmin):
    list_display = ("name", "edition", "house", "order", "is_official", "is_active")
    list_filter = ("edition", "house", "is_official", "is_active")
    list_select_related = ("house",)
    inlines = [SkillInline]


@admin.register(Skill)
class SkillAdmin(ContentRecordAdmin):
    list_display = ("name", "table", "edition", "is_official", "is_active")
    list_filter = ("edition", "table__house", "table", "is_official", "is_active")
    list_select_related = ("table",)
    search_fields = (*RECORD_SEARCH, "summary")


@admin.register(SkillAccess)
class SkillAccessAdmin(admin.ModelAdmin):
    list_display = ("fighter_type", "table", "level", "is_official")
    list_filter = ("fighter_type__edition", "fighter_type__house", "level", "is_official")
    list_select_related = ("fighter_type__house", "table")
    search_fields = ("fighter_type__name", "table__name")
    autocomplete_fields = ("fighter_type", "table")


@admin.register(Territory)
class TerritoryAdmin(ContentRecordAdmin):
    list_display = ("name", "edition", "roll", "income", "is_home_settlement", "is_official", "is_active")
    list_filter = ("edition", "is_home_settlement", "is_official", "is_active")
    search_fields = (*RECORD_SEARCH, "effects")


@admin.register(Rule)
class RuleAdmin(ContentRecordAdmin):
    list_display = ("name", "kind", "edition", "summary", "is_official", "is_active")
    list_filter = ("edition", "kind", "is_official", "is_active")
    search_fields = (*RECORD_SEARCH, "summary")

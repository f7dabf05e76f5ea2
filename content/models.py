"""Game content: house lists, fighter types, equipment and profiles, skills, territories.

Content is separate from player data (gangs, fighters, purchases). Official rows come from the
JSON files in ``rulebook/data/<edition>/`` through ``manage.py load_content`` and carry their
``sources``; an arbitrator may add house rules in the admin, which are rows with
``is_official=False`` that the loader never changes or deletes. Official rows that drop out of
the files are deactivated (``is_active=False``), never deleted, because gangs may refer to them.
A purchase keeps the price it paid; nothing here reprices what a gang already owns.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

# A summary is one line on a phone and on a 63 mm card: what the rule does, not how the book words it.
SUMMARY_LENGTH = 120


class Edition(models.TextChoices):
    CLASSIC = "classic", "Classic (1995)"
    N18 = "n18", "2018+ rules"


class ContentQuerySet(models.QuerySet):
    def active(self):
        return self.filter(is_active=True)


class ContentRecord(models.Model):
    """Fields every top-level content record has: identity (edition, slug), provenance, status."""

    edition = models.CharField(max_length=8, choices=Edition.choices)
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=120)
    sources = models.JSONField(default=list, blank=True, help_text="Where each number comes from, e.g. ['S1', 'N2'].")
    notes = models.TextField(blank=True)
    is_official = models.BooleanField(
        default=False,
        help_text="Official rows come from the rulebook data files and are rewritten by load_content. "
        "Leave this off for a house rule: the loader never touches unofficial rows.",
    )
    is_active = models.BooleanField(
        default=True, help_text="Inactive rows have left the data files but stay for the gangs that use them."
    )

    objects = ContentQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["edition", "name"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "slug"], name="%(app_label)s_%(class)s_unique_edition_slug"),
            models.CheckConstraint(
                condition=Q(edition__in=Edition.values), name="%(app_label)s_%(class)s_edition_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.edition})"


class HouseKind(models.TextChoices):
    GANG_LIST = "gang_list", "Gang list"
    # Not a gang a player founds: the Hangers-on, Brutes and Hired Guns every gang list of the edition
    # may recruit (2023 Core Rulebook, Gang Additions), each type perhaps restricted to some houses.
    ADDITIONS = "additions", "Gang additions"


class House(ContentRecord):
    """A house list, with its gang composition rules (starting credits, fighter counts and shares).

    A house of kind ``additions`` holds the fighter types any gang list may add (Hangers-on, Brutes,
    Hired Guns); nobody founds a gang of it.
    """

    kind = models.CharField(max_length=10, choices=HouseKind.choices, default=HouseKind.GANG_LIST)
    starting_credits = models.PositiveIntegerField(default=1000)
    min_fighters = models.PositiveSmallIntegerField(null=True, blank=True)
    composition_rules = models.JSONField(
        default=list,
        blank=True,
        help_text='Share rules, e.g. [{"kind": "max_share", "categories": ["juve"], "share": "1/2"}].',
    )
    gang_rules = models.JSONField(
        default=list,
        blank=True,
        help_text='The gang list\'s own rules in our words: [{"name": "Outlaw", "summary": "..."}].',
    )


class FighterCategory(models.TextChoices):
    LEADER = "leader", "Leader"
    CHAMPION = "champion", "Champion"
    HEAVY = "heavy", "Heavy"
    GANGER = "ganger", "Ganger"
    SPECIALIST = "specialist", "Specialist"
    JUVE = "juve", "Juve"
    PROSPECT = "prospect", "Prospect"
    # Gang additions (2023 Core Rulebook): not counted toward the other categories' limits.
    HANGER_ON = "hanger_on", "Hanger-on"
    BRUTE = "brute", "Brute"
    HIRED_GUN = "hired_gun", "Hired Gun"


# Hangers-on and Brutes are held together up to the Reputation cap; Hired Guns come for one battle.
ADDITION_CATEGORIES = frozenset({FighterCategory.HANGER_ON, FighterCategory.BRUTE, FighterCategory.HIRED_GUN})


class FighterType(ContentRecord):
    """A fighter a house list can recruit, with cost, base stat line and limits per gang.

    Classic stats are the 1995 numbers (WS 4, Ld 8). 2018+ stats are stored as printed: M, S,
    T, W and A as numbers; WS, BS, I, Ld, Cl, Wil and Int as target numbers (3 for 3+).
    Cl, Wil and Int exist only in the 2018+ rules.
    """

    house = models.ForeignKey(House, on_delete=models.PROTECT, related_name="fighter_types")
    category = models.CharField(max_length=12, choices=FighterCategory.choices)
    cost = models.PositiveIntegerField()
    movement = models.PositiveSmallIntegerField()
    weapon_skill = models.PositiveSmallIntegerField()
    ballistic_skill = models.PositiveSmallIntegerField()
    strength = models.PositiveSmallIntegerField()
    toughness = models.PositiveSmallIntegerField()
    wounds = models.PositiveSmallIntegerField()
    initiative = models.PositiveSmallIntegerField()
    attacks = models.PositiveSmallIntegerField()
    leadership = models.PositiveSmallIntegerField()
    cool = models.PositiveSmallIntegerField(null=True, blank=True)
    willpower = models.PositiveSmallIntegerField(null=True, blank=True)
    intelligence = models.PositiveSmallIntegerField(null=True, blank=True)
    starting_xp = models.CharField(max_length=20, blank=True, help_text='e.g. "60+D6" or "0".')
    min_per_gang = models.PositiveSmallIntegerField(default=0)
    max_per_gang = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty means no limit.")
    weapon_categories = models.JSONField(
        default=list, blank=True, help_text="The weapon lists (classic) or weapon types (2018+) it may buy from."
    )
    special_rules = models.JSONField(default=list, blank=True)
    recruited_by = models.JSONField(
        default=list, blank=True, help_text="Gang additions only: house slugs that may recruit it; empty means any."
    )
    house_costs = models.JSONField(
        default=dict, blank=True, help_text='Gang additions only: a house\'s own price, e.g. {"goliath": 180}.'
    )
    recruited_by_rule = models.CharField(
        max_length=120,
        blank=True,
        help_text="Set when this fighter joins by a rule instead of being bought (a Palanite Rookie replacing a "
        "fallen Enforcer): the rule's name. Hiring one is free, and refused unless the rule allows it now.",
    )
    order = models.PositiveSmallIntegerField(default=0)

    class Meta(ContentRecord.Meta):
        ordering = ["house", "order", "name"]
        constraints = [
            *ContentRecord.Meta.constraints,
            models.CheckConstraint(
                condition=Q(max_per_gang__isnull=True) | Q(max_per_gang__gte=F("min_per_gang")),
                name="content_fightertype_max_not_below_min",
            ),
            models.CheckConstraint(
                condition=Q(edition=Edition.N18)
                | Q(cool__isnull=True, willpower__isnull=True, intelligence__isnull=True),
                name="content_fightertype_classic_has_no_mental_stats",
            ),
            models.CheckConstraint(
                condition=Q(edition=Edition.CLASSIC)
                | Q(cool__isnull=False, willpower__isnull=False, intelligence__isnull=False),
                name="content_fightertype_n18_has_mental_stats",
            ),
        ]

    def __str__(self) -> str:
        # Every house has a "Leader": name the house too (select_related("house") where this is listed).
        return f"{self.house.name} {self.name} ({self.edition})"

    @property
    def is_addition(self) -> bool:
        return self.category in ADDITION_CATEGORIES

    def cost_for(self, house: House) -> int:
        """The price ``house`` pays: a gang addition may be cheaper for some houses (Goliath Servitor Ogryns)."""
        return int(self.house_costs.get(house.slug, self.cost))

    def recruitable_by(self, house: House) -> bool:
        """A house-list type by its own house; a gang addition by any house of the edition it names (or all)."""
        if not self.is_addition:
            return self.house_id == house.pk
        return self.edition == house.edition and (not self.recruited_by or house.slug in self.recruited_by)

    @property
    def statline(self) -> list[tuple[str, str]]:
        """(label, value as printed) in the edition's order: 2018+ prints inches and target numbers (3+)."""
        plain = [("M", self.movement), ("WS", self.weapon_skill), ("BS", self.ballistic_skill), ("S", self.strength)]
        plain += [("T", self.toughness), ("W", self.wounds), ("I", self.initiative), ("A", self.attacks)]
        plain += [("Ld", self.leadership)]
        if self.edition != Edition.N18:
            return [(label, str(value)) for label, value in plain]
        plain += [("Cl", self.cool), ("Wil", self.willpower), ("Int", self.intelligence)]
        target = {"WS", "BS", "I", "Ld", "Cl", "Wil", "Int"}
        return [
            (label, f'{value}"' if label == "M" else f"{value}+" if label in target else str(value))
            for label, value in plain
        ]

    @property
    def skill_tables_by_level(self) -> dict[str, list[str]]:
        """Table names per access level, from ``skill_access`` (prefetch it with its tables when listing)."""
        levels = {level: [] for level in SkillAccessLevel.values}
        for access in self.skill_access.all():
            levels[access.level].append(access.table.name)
        return levels


class EquipmentKind(models.TextChoices):
    WEAPON = "weapon", "Weapon"
    ARMOUR = "armour", "Armour"
    WARGEAR = "wargear", "Wargear"


class EquipmentCategory(models.TextChoices):
    PISTOL = "pistol", "Pistol"
    BASIC = "basic", "Basic weapon"
    SPECIAL = "special", "Special weapon"
    HEAVY = "heavy", "Heavy weapon"
    HAND_TO_HAND = "hand_to_hand", "Hand-to-hand weapon"
    CLOSE_COMBAT = "close_combat", "Close combat weapon"
    GRENADE = "grenade", "Grenade"
    # 2018+: special ammunition, each its own weapon profile (fired as the weapon it is bought for)
    AMMO = "ammo", "Special ammunition"
    ARMOUR = "armour", "Armour"
    WARGEAR = "wargear", "Wargear"
    # 2018+ wargear kinds of the 2023 Armoury
    PERSONAL = "personal", "Personal equipment"
    CHEM = "chem", "Chem"
    BIONIC = "bionic", "Bionic"
    STATUS = "status", "Status item"
    EXOTIC_BEAST = "exotic_beast", "Exotic beast"


# Wargear a 2018+ file may file under a kind of its own (``"category"`` on a wargear record; default wargear).
WARGEAR_CATEGORIES = (
    EquipmentCategory.WARGEAR,
    EquipmentCategory.PERSONAL,
    EquipmentCategory.CHEM,
    EquipmentCategory.BIONIC,
    EquipmentCategory.STATUS,
    EquipmentCategory.EXOTIC_BEAST,
)


class Equipment(ContentRecord):
    """Anything a fighter can carry: a weapon (with profiles), armour or wargear, at its list price."""

    kind = models.CharField(max_length=8, choices=EquipmentKind.choices)
    category = models.CharField(max_length=16, choices=EquipmentCategory.choices)
    cost = models.PositiveIntegerField(
        null=True, blank=True, help_text="List (base) price in credits; empty when the price is rolled or derived."
    )
    rarity = models.CharField(max_length=12, blank=True, help_text='2018+: "Common", "R9", "I10"; classic: "rare".')
    rare_cost = models.CharField(max_length=40, blank=True, help_text='Classic Trading Post price, e.g. "100+4D6".')
    # Not "save": a field of that name would hide Model.save().
    armour_save = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Armour save on a D6 (6 for 6+).")
    special_rules = models.JSONField(default=list, blank=True, help_text="Classic special rules by name.")
    fits = models.JSONField(
        default=list, blank=True, help_text="Special ammunition: the slugs of the weapons it is fired from."
    )
    beast = models.JSONField(
        default=dict,
        blank=True,
        help_text='An Exotic Beast\'s own card: {"stats": {...}, "weapons": [...], "rules": [...]} ("-" stored as null).',
    )

    class Meta(ContentRecord.Meta):
        verbose_name_plural = "equipment"
        constraints = [
            *ContentRecord.Meta.constraints,
            models.CheckConstraint(
                condition=Q(armour_save__isnull=True) | Q(armour_save__gte=2, armour_save__lte=6),
                name="content_equipment_save_is_d6",
            ),
        ]


class WeaponProfile(models.Model):
    """One firing mode or ammunition of a weapon; columns are the union of both editions' profiles.

    Classic: ranges in inches (null for templates and hand-to-hand), ``hit_short``/``hit_long``,
    ``save_mod``, ``ammo`` as the Ammo roll ("4+", "auto"), ``template``, ``sustained_fire``.
    2018+: ``range_code`` "E" (engagement), "T" (template) or a thrown range like "Sx3" instead of inches, ``acc_short``/
    ``acc_long``, ``ap``, ``ammo``, ``traits``.
    """

    equipment = models.ForeignKey(Equipment, on_delete=models.CASCADE, related_name="profiles")
    order = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=60, blank=True)
    short_range = models.PositiveSmallIntegerField(null=True, blank=True)
    long_range = models.PositiveSmallIntegerField(null=True, blank=True)
    range_code = models.CharField(
        max_length=8, blank=True, help_text='2018+ range that is not inches: "E", "T", "Sx3".'
    )
    hit_short = models.SmallIntegerField(null=True, blank=True)
    hit_long = models.SmallIntegerField(null=True, blank=True)
    acc_short = models.SmallIntegerField(null=True, blank=True)
    acc_long = models.SmallIntegerField(null=True, blank=True)
    strength = models.CharField(max_length=16, blank=True)
    damage = models.CharField(max_length=8, blank=True)
    save_mod = models.SmallIntegerField(null=True, blank=True)
    ap = models.SmallIntegerField(null=True, blank=True)
    ammo = models.CharField(max_length=8, blank=True)
    template = models.CharField(max_length=12, blank=True)
    sustained_fire = models.PositiveSmallIntegerField(default=0)
    traits = models.JSONField(default=list, blank=True)
    special_rules = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["equipment", "order"]
        constraints = [
            models.UniqueConstraint(fields=["equipment", "order"], name="content_weaponprofile_unique_order"),
            models.CheckConstraint(
                condition=Q(save_mod__isnull=True) | Q(save_mod__lte=0), name="content_weaponprofile_save_mod_le_0"
            ),
            # AP is 0 or less, except the 2023 maul's +1, which helps the target's save.
            models.CheckConstraint(condition=Q(ap__isnull=True) | Q(ap__lte=1), name="content_weaponprofile_ap_le_1"),
            models.CheckConstraint(
                condition=Q(short_range__isnull=True)
                | Q(long_range__isnull=True)
                | Q(long_range__gte=F("short_range")),
                name="content_weaponprofile_long_range_not_shorter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.equipment.name} {self.name}".strip()


class FighterTypeEquipment(models.Model):
    """An item on a fighter type's equipment list, at its list price for that fighter type.

    Classic lists are weapon-list categories (see ``FighterType.weapon_categories``); the loader
    expands them into one row per item at the Armoury price, so both editions read the same way.
    """

    fighter_type = models.ForeignKey(FighterType, on_delete=models.CASCADE, related_name="equipment_list")
    equipment = models.ForeignKey(Equipment, on_delete=models.PROTECT, related_name="fighter_type_lists")
    cost = models.PositiveIntegerField()
    is_included = models.BooleanField(
        default=False, help_text="Part of the fighter type's price: a Hanger-on or Brute is hired holding it."
    )
    is_official = models.BooleanField(default=False)

    class Meta:
        ordering = ["fighter_type", "equipment__category", "equipment__name"]
        verbose_name = "equipment list entry"
        verbose_name_plural = "equipment list entries"
        constraints = [
            models.UniqueConstraint(fields=["fighter_type", "equipment"], name="content_ftequipment_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.fighter_type.name}: {self.equipment.name} ({self.cost})"


class SkillTable(ContentRecord):
    """A table of skills (Agility, Combat...). A house-only table names its house."""

    house = models.ForeignKey(House, null=True, blank=True, on_delete=models.PROTECT, related_name="skill_tables")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta(ContentRecord.Meta):
        ordering = ["edition", "order", "name"]


class Skill(ContentRecord):
    table = models.ForeignKey(SkillTable, on_delete=models.PROTECT, related_name="skills")
    order = models.PositiveSmallIntegerField(default=0)
    summary = models.CharField(
        max_length=SUMMARY_LENGTH, blank=True, help_text="One line in our own words, never the rules text."
    )

    class Meta(ContentRecord.Meta):
        ordering = ["table", "order", "name"]


class SkillAccessLevel(models.TextChoices):
    PRIMARY = "primary", "Primary"
    SECONDARY = "secondary", "Secondary"


class SkillAccess(models.Model):
    """Which skill tables a fighter type may learn from. Classic access is all ``primary``."""

    fighter_type = models.ForeignKey(FighterType, on_delete=models.CASCADE, related_name="skill_access")
    table = models.ForeignKey(SkillTable, on_delete=models.CASCADE, related_name="access")
    level = models.CharField(max_length=10, choices=SkillAccessLevel.choices, default=SkillAccessLevel.PRIMARY)
    is_official = models.BooleanField(default=False)

    class Meta:
        ordering = ["fighter_type", "table__order"]
        verbose_name_plural = "skill access"
        constraints = [
            models.UniqueConstraint(fields=["fighter_type", "table"], name="content_skillaccess_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.fighter_type.name}: {self.table.name} ({self.get_level_display()})"


class Territory(ContentRecord):
    """A territory a campaign can hand out, with its income (dice text) and effects in our words."""

    roll = models.CharField(max_length=8, blank=True, help_text='The territory table roll, e.g. "12-16".')
    income = models.CharField(max_length=20, blank=True, help_text='e.g. "D6x10", "2D6", "15".')
    effects = models.TextField(blank=True)
    is_home_settlement = models.BooleanField(default=False)

    class Meta(ContentRecord.Meta):
        verbose_name_plural = "territories"


class ContentVersion(models.Model):
    """One row whose number moves on every change to the game content (a ``load_content`` that changed something,
    an admin's edit): rendered rosters are cached under it, so a change to a weapon's profile or a skill's summary
    shows on the next render of every roster (:mod:`gangs.cache`)."""

    number = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Content version {self.number}"


class RuleKind(models.TextChoices):
    WEAPON = "weapon", "Weapon trait or special rule"
    FIGHTER = "fighter", "Fighter or gang rule"


class Rule(ContentRecord):
    """A named rule that profiles and fighter types refer to by name, with its one-line summary.

    2018+ weapon traits ("Rapid Fire (1)"), classic weapon special rules ("Move or fire") and the
    special rules of fighter types ("Gang Fighter (Juve)") are stored on the records that carry them
    as plain names, as the books print them; this table explains them. A name is matched without
    its parameter in brackets ("Rapid Fire (2)" is Rapid Fire), and ``aliases`` lists other
    spellings of the same rule ("Sustained fire 2 dice"). See :mod:`content.printed`.
    """

    kind = models.CharField(max_length=8, choices=RuleKind.choices)
    summary = models.CharField(max_length=SUMMARY_LENGTH, help_text="One line in our own words, never the rules text.")
    aliases = models.JSONField(default=list, blank=True, help_text="Other names of the rule, as some records print it.")

    class Meta(ContentRecord.Meta):
        verbose_name = "rule summary"
        verbose_name_plural = "rule summaries"

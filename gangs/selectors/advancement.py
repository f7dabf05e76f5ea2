"""What a fighter may advance on: the skill tables a fighter type reaches and at which level, the tables a fighter
already has every skill of (refused before any die), and the Specialist a Ganger becomes (reads the advancement
services check again under their locks)."""

from __future__ import annotations

from django.db.models import Case, OuterRef, Subquery, Value, When

from content.models import Edition, FighterType, Skill, SkillAccess
from gangs.models import Fighter
from rulebook import gang_rules
from rulebook.classic.campaign import experience
from rulebook.roster import FighterSnapshot


def skill_tables(edition: str, fighter_type: FighterType) -> tuple[dict, dict, dict]:
    """(standard tables, all tables, access level by table) as {table name: [skill names in order]}."""
    # One query: each active skill with its table and the type's access level to that table. A table with no
    # active skill has nothing to offer, so it is left out.
    level = SkillAccess.objects.filter(fighter_type=fighter_type, table=OuterRef("table")).values("level")[:1]
    skills = (
        Skill.objects.filter(edition=edition, is_active=True, table__is_active=True)
        .select_related("table")
        .annotate(access_level=Subquery(level))
        .order_by("table__order", "table__name", "order", "name")
    )
    every: dict[str, list[str]] = {}
    levels: dict[str, str] = {}
    for skill in skills:
        every.setdefault(skill.table.name, []).append(skill.name)
        if skill.access_level:
            levels[skill.table.name] = skill.access_level
    standard = {name: every[name] for name in levels}
    return standard, every, levels


def specialist_primary_tables(fighter: Fighter) -> list[str]:
    """The Primary Skill Sets of the house list's Specialist (:func:`specialist_type`), in one query: what a
    Ganger's Advancement form offers for a Specialist's random skill."""
    specialist = specialist_types(fighter).values("pk")[:1]
    access = SkillAccess.objects.filter(fighter_type=Subquery(specialist), level="primary", table__is_active=True)
    return list(access.order_by("table__order", "table__pk").values_list("table__name", flat=True))


def n18_full_tables(fighter: Fighter, tables: list[str]) -> list[str]:
    """Of the 2018+ skill ``tables``, those ``fighter`` has every skill of, which a Ganger's Advancement roll
    (:func:`gangs.services.fighter_advance_n18`) refuses before its dice (one query; the fighter's skills prefetched
    by gangs.selectors.roster.fighters_queryset)."""
    skills: dict[str, set[str]] = {}
    rows = Skill.objects.filter(edition=Edition.N18, table__name__in=tables, is_active=True)
    for table, name in rows.values_list("table__name", "name"):
        skills.setdefault(table, set()).add(name)
    known = [fs.skill.name for fs in fighter.skills.all()]
    return [table for table in tables if gang_rules.n18_table_full(sorted(skills.get(table, ())), known)]


def classic_full_tables(fighter: Fighter) -> list[str]:
    """The skill tables ``fighter`` has every skill of, which :func:`gangs.services.fighter_advance_classic` refuses
    before its dice: what the advance form leaves out, saying why. Reads the fighter's prefetched skills
    (gangs.selectors.roster.fighters_queryset) when it has them."""
    snapshot = FighterSnapshot(characteristics={}, skills=[fs.skill.name for fs in fighter.skills.all()])
    return [table for table in experience.SKILL_TABLES if experience.table_full(snapshot, table)]


def specialist_type(fighter: Fighter) -> FighterType | None:
    """The house list's Specialist, whom a Ganger becomes on a 2 or 12 of their Advancement roll."""
    return specialist_types(fighter).first()


def specialist_types(fighter: Fighter):
    """The house list's Specialists, the one a Ganger becomes first. A list with several kinds of Ganger names each
    one's Specialist ``<ganger slug>-specialist`` (a Subjugator Patrolman becomes a Subjugator Patrolman (Specialist),
    not a Palanite one); otherwise the list's first Specialist comes first."""
    own = Case(When(slug=f"{fighter.fighter_type.slug}-specialist", then=Value(0)), default=Value(1))
    types = fighter.gang.house.fighter_types.filter(category="specialist", is_active=True)
    return types.annotate(own_kind=own).order_by("own_kind", "order", "pk")

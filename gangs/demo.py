"""Demo gangs of both editions for the ``demo`` user and a rival player, built with the gang services.

Idempotent: a gang that already exists (same owner and name) is left alone. Needs the house lists
(``manage.py load_content``); a house that is missing is skipped with a note. Dice are seeded, so
a fresh database always gets the same rosters.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from content.models import Edition, House
from gangs import selectors, services
from gangs.models import FighterStatus, Gang
from rulebook.dice import ScriptedDice, SeededDice

RIVAL_USERNAME = "demo-rival"

# (owner key, edition, house slug, gang name, [(category, name, wanted equipment slugs), ...])
GANGS = [
    (
        "demo",
        Edition.CLASSIC,
        "orlock",
        "The Rust Rats",
        [
            ("leader", "Kal Varro", ["bolt-pistol", "chainsword", "mesh-armour"]),
            ("heavy", "Big Tarn", ["heavy-stubber", "flak-armour"]),
            ("ganger", "Vex", ["lasgun", "knife"]),
            ("ganger", "Rusk", ["autogun", "frag-grenades"]),
            ("ganger", "Mord", ["shotgun", "sword"]),
            ("juve", "Little Pip", ["stub-gun", "club"]),
        ],
    ),
    (
        "demo",
        Edition.N18,
        "escher",
        "Venom Sisters",
        [
            ("leader", "Queen Lysandra", ["needle-pistol", "power-sword", "mesh-armour"]),
            ("champion", "Matriarch Irae", ["plasma-pistol", "stiletto-knife"]),
            ("ganger", "Sister Nyx", ["lasgun", "flak-armour"]),
            ("ganger", "Sister Vale", ["autogun"]),
            ("juve", "Little Kess", ["autopistol", "stiletto-knife"]),
        ],
    ),
    (
        "rival",
        Edition.CLASSIC,
        "goliath",
        "Iron Skulls",
        [
            ("leader", "Brakk", ["plasma-pistol", "massive-axe"]),
            ("heavy", "Grunt", ["heavy-bolter"]),
            ("ganger", "Skarn", ["shotgun", "chain"]),
            ("ganger", "Thud", ["autogun"]),
        ],
    ),
    (
        "rival",
        Edition.N18,
        "goliath",
        "Forge Hammers",
        [
            ("leader", "Tyrant Vorg", ["combat-shotgun", "power-hammer"]),
            ("champion", "Boss Krull", ["renderizer", "stub-cannon"]),
            ("ganger", "Bruiser Dak", ["stub-gun", "fighting-knife"]),
            ("ganger", "Bruiser Holt", ["stub-cannon"]),
        ],
    ),
]


def _rival():
    user, _ = get_user_model().objects.get_or_create(username=RIVAL_USERNAME, defaults={"email": "rival@example.com"})
    user.set_password("demo")
    user.save(update_fields=["password"])
    return user


def _arm(gang: Gang, fighter, wanted: list[str]) -> None:
    offers = {item.slug: item for item, _, _ in selectors.buyable_equipment(gang, fighter)}
    for slug in wanted:
        if slug in offers:
            try:
                services.purchase_buy(gang=gang, equipment=offers[slug], fighter=fighter, actor=gang.owner)
            except ValidationError:
                return  # out of credits: the rest of the kit waits


def _classic_advance_dice(n: int) -> list[int]:
    """Dice "rolled at the table" for the demo: a skill (3 on 2D6), then +1 BS (6, then 4), in turn.

    The trailing faces cover re-rolls of a skill the fighter already has.
    """
    if n % 2:
        return [3, 3, 4]
    return [1, 2, n // 2 % 6 + 1, 1, 2, 3, 4, 5, 6]


def _seasoned(gang: Gang, fighters: list, dice: SeededDice) -> None:
    """A few battles' worth of history: experience, advances, an injury, a fighter in Recovery, one dead."""
    owner = gang.owner
    leader, second, third = fighters[0], fighters[1], fighters[2]
    services.gang_override(gang=gang, actor=owner, reason="Demo: two battles won", credits=90, reputation=3)
    services.experience_award(fighter=leader, amount=14, actor=owner, reason="Demo: battles survived")
    services.experience_award(fighter=second, amount=21, actor=owner, reason="Demo: battles survived")
    if gang.edition == Edition.CLASSIC:
        for fighter in (leader, second):
            fighter.refresh_from_db()
            standard, _, _ = selectors.skill_tables(Edition.CLASSIC, fighter.fighter_type)
            for n in range(selectors.classic_advances_due(fighter, fighter.advancements.count())):
                services.fighter_advance_classic(
                    fighter=fighter,
                    actor=owner,
                    dice=ScriptedDice(_classic_advance_dice(n)),
                    skill_table=next(iter(standard)),
                )
    else:
        services.fighter_advance_n18(fighter=leader, actor=owner, characteristic="BS")
        _, _, levels = selectors.skill_tables(Edition.N18, second.fighter_type)
        if levels:
            services.fighter_advance_n18(fighter=second, actor=owner, random_table=next(iter(levels)), dice=dice)
    services.injury_record(
        fighter=third,
        code="eye-injury" if gang.edition == Edition.N18 else "blinded-in-one-eye",
        name="Eye Injury" if gang.edition == Edition.N18 else "Blinded in one eye",
        roll=44 if gang.edition == Edition.N18 else 26,
        stat_deltas={"BS": 1 if gang.edition == Edition.N18 else -1},
        actor=owner,
        reason="Demo: post-battle injury roll",
        status=FighterStatus.RECOVERY if gang.edition == Edition.N18 else None,
    )
    if len(fighters) > 4:
        services.fighter_status_set(
            fighter=fighters[-1], status=FighterStatus.DEAD, actor=owner, reason="Demo: Memorable Death"
        )


def build_demo_gangs(*, user, stdout) -> None:
    owners = {"demo": user, "rival": _rival()}
    for seed, (owner_key, edition, slug, name, roster) in enumerate(GANGS, start=1):
        owner = owners[owner_key]
        if Gang.objects.filter(owner=owner, name=name).exists():
            continue
        house = House.objects.active().filter(edition=edition, slug=slug).first()
        if house is None:
            stdout.write(f"Skipped demo gang {name}: no {edition} house {slug!r} (run load_content).")
            continue
        dice = SeededDice(seed)
        gang = services.gang_create(owner=owner, house=house, name=name)
        types = {t.category: t for t in reversed(house.fighter_types.filter(is_active=True).order_by("order"))}
        fighters = []
        for category, fighter_name, kit in roster:
            if category not in types:
                continue
            fighter = services.fighter_hire(
                gang=gang, fighter_type=types[category], name=fighter_name, actor=owner, dice=dice
            )
            _arm(gang, fighter, kit)
            fighters.append(fighter)
        _seasoned(gang, fighters, dice)
        stdout.write(f"Demo gang {name} ({house.name}, {house.get_edition_display()}) for {owner.username}.")

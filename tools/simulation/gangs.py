"""Founding the simulated players' gangs: a house picked at random, a Leader, then fighters while the Stash
pays and the house list allows, each armed from their own list (a ranged weapon and a close combat weapon)."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from content.models import House
from gangs.models import Gang
from gangs.selectors import buyable_equipment
from gangs.services import fighter_hire, gang_create, purchase_buy
from rulebook.dice import SeededDice

# The fighter categories a starting gang is built from (no Hangers-on, Brutes or Hired Guns: they have rules of
# their own, tried by their own tests).
FOUNDING = ("leader", "champion", "ganger", "juve", "specialist")
MAX_FIGHTERS = 8
CLOSE_COMBAT = ("hand_to_hand", "close_combat")
NAME_LENGTH = 80  # Gang.name and Fighter.name


def player(label: str):
    user = get_user_model().objects.create_user(username=label, password=None)
    return user


def long_name(base: str, length: int = NAME_LENGTH) -> str:
    """``base`` padded to the longest name the forms allow, so every composed description meets its longest."""
    text = (base + " of the Underhive Deeps" * 6)[:length]
    return text[:-1] + "s" if text.endswith(" ") else text  # exactly ``length``: no trailing space to strip


def houses(edition: str) -> list[House]:
    found = House.objects.filter(edition=edition, is_active=True, fighter_types__category="leader").distinct()
    return list(found.order_by("slug"))


def _ranged_profiles(equipment) -> list[int]:
    return [i for i, p in enumerate(equipment.profiles.all()) if p.long_range]


def arm(gang: Gang, fighter, rng: random.Random) -> None:
    """A ranged weapon with a range in inches and a close combat weapon, from the fighter's list, while the Stash pays."""
    offers = buyable_equipment(gang, fighter)
    ranged = [
        o for o in offers if o[0].kind == "weapon" and o[0].category not in CLOSE_COMBAT and _ranged_profiles(o[0])
    ]
    melee = [o for o in offers if o[0].kind == "weapon" and o[0].category in CLOSE_COMBAT]
    for choices in (ranged, melee):
        gang.refresh_from_db(fields=["stash"])
        affordable = [o for o in choices if o[1] <= gang.stash - 20]
        if affordable:
            purchase_buy(gang=gang, equipment=rng.choice(affordable)[0], fighter=fighter, actor=gang.owner)


def found_gang(*, owner, edition: str, name: str, rng: random.Random, seed: int, long_names: bool = False) -> Gang:
    house = rng.choice(houses(edition))
    gang = gang_create(owner=owner, house=house, name=name)
    types = list(house.fighter_types.filter(is_active=True, category__in=FOUNDING).order_by("order", "pk"))
    leader = [t for t in types if t.category == "leader"][:1]
    others = [t for t in types if t.category != "leader"]
    plan = leader + [t for t in types if t.min_per_gang and t.category != "leader"]
    count = 0
    for attempt in range(40):
        if count >= MAX_FIGHTERS:
            break
        fighter_type = plan[attempt] if attempt < len(plan) else rng.choice(others or leader)
        gang.refresh_from_db(fields=["stash"])
        if fighter_type.cost > gang.stash - 40:
            continue
        fighter_name = f"{fighter_type.name} {count + 1}"
        fighter_name = long_name(fighter_name) if long_names else fighter_name
        try:
            fighter = fighter_hire(
                gang=gang,
                fighter_type=fighter_type,
                name=fighter_name,
                actor=owner,
                dice=SeededDice(seed * 100 + attempt),
            )
        except ValidationError:
            continue  # a composition limit: another type
        count += 1
        arm(gang, fighter, rng)
    return gang

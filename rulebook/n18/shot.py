"""Reading a 2018+ Shoot query into one :class:`Shot`: the range band, the hit modifiers, the target's armour
and cover, and the :class:`~rulebook.n18.resolution.Attack` every hit is resolved with.

Sources (numbers are facts; the wording here is ours):

- Hit modifiers (Accuracy by range band, cover -1/-2, an Engaged target -1, a Prone or Seriously Injured target
  at long range -1), Blast markers and Flame templates and the +1/+2 save for cover against them: the 2023 core
  rulebook, https://necrovox.org/docs/the-rules/shooting, and the project's content facts section 3 (N1-N3).
- Flak armour's 5+ against Blast markers and Flame templates (2023; BSData's 2019 text names Blast markers
  only), Knockback against a blocked fighter, Rapid Fire (X) dice and thrown ranges: BSData
  necromunda-gang-war ``Necromunda-Gang-War.gst`` shared rules (https://github.com/BSData/necromunda-gang-war)
  and https://necrovox.org/docs/armoury/armour.
- Rapid Fire hits split (the first hit on the target, the others on fighters within 3" of it, none harder to hit),
  and the Flash (an Initiative test), Web (the wound roll), Smoke (no hit on anyone) and Graviton Pulse (a
  Strength roll) traits: the 2023 core rulebook's weapon traits, read through the copy in the public repository
  yakuzadave/necroman_v2, ``necrovox_docs_flat/3-gang-fighters-and-their-weaponry/6-weapon-traits.md``.
- The target's wargear against Gas (respirator, filter plugs) and Flash (photo-goggles): :mod:`rulebook.n18.wargear`.
- Weapon profiles from ``rulebook/data/n18/trading_post.json``.

The odds and the roll on a dice source are :mod:`rulebook.n18.shooting`.
"""

from __future__ import annotations

from dataclasses import replace

from rulebook.errors import RulesInputError
from rulebook.n18 import armour, trading_post, wargear
from rulebook.n18.damage import read_fighter
from rulebook.n18.resolution import Attack, read_modifiers, target_number
from rulebook.query import Query

COVER = {"none": 0, "partial": -1, "full": -2}
SAVE_COVER = {"none": 0, "partial": 1, "full": 2}  # against Blast markers and Flame templates
NO_ARMOUR = 7  # an unarmoured fighter given a positive save modifier counts as having a 7+ save
# Traits the hit resolution reads (Flash and Web: that it makes no wound roll).
RESOLVED = frozenset({"Power", "Rending", "Shock", "Gas", "Toxin", "Pulverise", "Graviton Pulse", "Flash", "Web"})
EFFECTS = frozenset({"Flash", "Web", "Smoke", "Graviton Pulse"})  # traits whose effect replaces the wound
NO_STRENGTH_NEEDED = frozenset({"Gas", "Toxin"}) | EFFECTS  # a profile with these may lack Strength or Damage
MAX_RAPID_FIRE = 6
MAX_SPLIT = 5  # other fighters a Rapid Fire attack's hits may go to


class Shot:
    """Everything a shoot query asks, read and checked once for ``odds`` and ``roll``."""

    def __init__(self, query: Query) -> None:
        shooter = query.sub("shooter")
        skill = target_number(shooter, "BS")
        user_strength = shooter.int("S", 1, 10, default=None)
        self.profile = profile = trading_post.read_profile(query)
        refused = refusal(profile)
        if refused:
            raise RulesInputError("weapon", f"{profile['weapon']}: {refused}")
        self.traits = traits = trading_post.trait_names(profile)
        self.rapid_fire = trading_post.trait_value(profile, "Rapid Fire", MAX_RAPID_FIRE)
        target = query.sub("target")
        fighter, state = read_fighter(target)
        self.fighter = fighter
        self.effect = next((t for t in ("Flash", "Web", "Smoke") if t in traits), None)
        # Flash: the Initiative a hit fighter tests against (4 for 4+), and what their photo-goggles add to the test.
        self.initiative = target_number(target, "I") if self.effect == "Flash" else None
        kit = wargear.read(target)
        self.flash_test = kit.flash_test if self.effect == "Flash" else 0
        self.under_marker = target.bool("under_marker")
        if self.under_marker and "Blast" not in traits:
            raise RulesInputError("target.under_marker", f"{profile['weapon']} does not use a Blast marker")
        distance = query.number("distance", 0, 200)
        cover = query.choice("cover", COVER, default="none")
        self.extra_targets = query.int("extra_targets", 0, 20, default=0)
        # One more fighter under the Blast marker or Flame template of an attack already resolved: hit without a
        # roll, and no Firepower dice or Ammo test of its own (they were rolled with the attack).
        self.also_under = query.bool("also_under")
        if self.also_under and not (self.under_marker or "Template" in traits):
            raise RulesInputError(
                "also_under",
                "only a fighter under a Blast marker (target.under_marker) or a "
                "Flame template is hit by the same attack",
            )
        if self.extra_targets and not traits & {"Blast", "Template"}:
            raise RulesInputError("extra_targets", "only a Blast marker or a Flame template hits other fighters")
        # Roll the Scatter dice (and the D6s) here when the Blast marker misses.
        self.scatter = query.bool("scatter")
        if self.scatter and ("Blast" not in traits or self.under_marker):
            raise RulesInputError("scatter", "only a Blast marker aimed at the target scatters when it misses")
        self.range = _range_band(profile, distance, user_strength)
        self.template = self.range["band"] == "template"
        modifier = COVER[cover] + read_modifiers(query)
        if not self.template and self.range["band"] != "out_of_range":
            modifier += profile["acc_short" if self.range["band"] == "short" else "acc_long"] or 0
            if state == "engaged":
                modifier -= 1
            if state in ("prone", "seriously_injured") and self.range["band"] == "long":
                modifier -= 1
        area = self.template or "Blast" in traits
        save, save_modifier = read_armour(
            target, area, cover if self.template else target_cover(target), profile["ap"] or 0
        )
        self.attack = Attack(
            skill=None if self.template or self.under_marker else skill,
            hit_modifier=modifier,
            strength=trading_post.resolve_strength(profile["strength"], user_strength, "shooter.S"),
            ap=profile["ap"],
            damage=profile["damage"] or 0,
            save=save,
            save_modifier=save_modifier,
            traits=frozenset(traits & RESOLVED),
            melta="Melta" in traits and self.range["band"] == "short",
            knockback_blocked=knockback(target, traits),
            target_strength=target.int("S", 1, 10) if "Graviton Pulse" in traits else None,
            gas_toughness=kit.gas_toughness if "Gas" in traits else 0,
        )
        self.split_to = self._split_to(query)
        self.in_range = self.range["band"] != "out_of_range" or self.under_marker
        self.firepower_dice = 0 if self.also_under else self._firepower_dice(query)

    def _firepower_dice(self, query: Query) -> int:
        """Up to X Firepower dice for Rapid Fire (X); one for a weapon with an Ammo value; none without."""
        if self.rapid_fire:
            return query.int("firepower_dice", 1, self.rapid_fire, default=self.rapid_fire)
        # A grenade rolls no Firepower dice: its Ammo test comes after the attack, as if the symbol showed.
        most = 0 if self.profile["ammo"] is None or "Grenade" in self.traits else 1
        return query.int("firepower_dice", most, most, default=most)

    def hits_per_hit(self, holes: int) -> int:
        return holes if self.rapid_fire and not self.also_under else 1

    def _split_to(self, query: Query) -> list[tuple[Attack, object, int]]:
        """``split_to``: the other fighters within 3" of the target that a Rapid Fire attack's spare hits go to,
        each with ``hits`` (the most it takes, default 1) and its own ``T``, ``W``, ``flesh_wounds``, ``state``,
        ``save`` or ``armour``, ``wargear``: (its attack, its fighter, its most hits) in the order given."""
        if not query.raw("split_to", []):
            return []
        if not self.rapid_fire or self.also_under:
            raise RulesInputError("split_to", "only a Rapid Fire attack's hits are split between fighters")
        others = query.items("split_to")
        if len(others) > MAX_SPLIT:
            raise RulesInputError("split_to", f"at most {MAX_SPLIT} other fighters")
        out = []
        for other in others:
            fighter, _ = read_fighter(other)
            save, save_modifier = read_armour(other, False, "none", self.profile["ap"] or 0)
            strength = other.int("S", 1, 10) if "Graviton Pulse" in self.traits else None
            gas = wargear.read(other).gas_toughness if "Gas" in self.traits else 0
            attack = replace(
                self.attack,
                save=save,
                save_modifier=save_modifier,
                knockback_blocked=None,
                target_strength=strength,
                gas_toughness=gas,
            )
            out.append((attack, fighter, other.int("hits", 1, 10, default=1)))
        return out

    def allocation(self, hits: int) -> tuple[int, ...]:
        """How ``hits`` hits are shared: the first on the target, then up to each ``split_to`` fighter's ``hits`` in
        turn, and any left over on the target again. (target's hits, each split fighter's hits)."""
        shares, left = [], max(0, hits - 1)
        for _, _, most in self.split_to:
            shares.append(min(left, most))
            left -= shares[-1]
        return (hits - sum(shares), *shares)


def refusal(profile: dict) -> str | None:
    """Why this weapon profile cannot be shot here (a close combat profile, or an effect not resolved), or None."""
    if "E" in (profile["long_range"], profile.get("short_range")):  # a Versatile weapon's reach is not a range
        return "a close combat weapon; use it in a fight"
    return trading_post.unresolved_effect(profile, poisons=NO_STRENGTH_NEEDED, resolved=EFFECTS)


def target_cover(target: Query) -> str:
    return target.choice("cover_from_marker", SAVE_COVER, default="none")


def read_armour(target: Query, area: bool, cover: str, ap: int = 0) -> tuple[int | None, int]:
    """The target's save and save modifier: ``save`` (5 for 5+), or ``armour`` as one name or a list of names
    (a suit of armour with an undersuit or a shield; :mod:`rulebook.n18.armour`) with ``front_arc``.

    Against a Blast marker or Flame template, flak armour saves on 5+ and cover adds +1 (partial) or +2 (full),
    an unarmoured fighter then counting as 7+ (https://necrovox.org/docs/the-rules/shooting).
    """
    save, modifier = armour.Defence(target, area=area).against(ap)
    modifier += SAVE_COVER[cover] if area else 0
    if modifier and save is None:
        save = NO_ARMOUR
    return save, modifier


def knockback(target: Query, traits: set) -> int | None:
    """The target's Strength when a Knockback hit cannot move them (``target.knockback_blocked``), else None."""
    blocked = target.bool("knockback_blocked")
    if not blocked:
        return None
    if "Knockback" not in traits:
        raise RulesInputError("target.knockback_blocked", "the weapon has no Knockback trait")
    return target.int("S", 1, 10)


def _range_band(profile: dict, distance: float, user_strength: int | None) -> dict:
    long_range = profile["long_range"]
    if long_range == "T":
        return {"band": "template", "short_range": None, "long_range": None}
    long_range = _thrown(long_range, user_strength)
    short = _thrown(profile["short_range"], user_strength)
    if distance > long_range:
        band = "out_of_range"
    elif short is not None and distance <= short:
        band = "short"
    else:
        band = "long"
    return {"band": band, "short_range": short, "long_range": long_range}


def range_bands(query: Query, user_strength: int) -> dict:
    """The farthest distance of each range band of the query's weapon: ``{"short": inches or None, "long":
    inches or None}`` (a template weapon has neither; a weapon without a Short range only ``long``). A profile
    that cannot be shot is refused, as the Shoot action refuses it."""
    profile = trading_post.read_profile(query)
    refused = refusal(profile)
    if refused:
        raise RulesInputError("weapon", f"{profile['weapon']}: {refused}")
    bands = _range_band(profile, 0, user_strength)
    return {"short": bands["short_range"], "long": bands["long_range"]}


def _thrown(reach, user_strength: int | None):
    """A range in inches: a thrown one (``Sx3``) is a multiple of the thrower's Strength."""
    if reach not in trading_post.GRENADE_RANGES:
        return reach
    if user_strength is None:
        raise RulesInputError("shooter.S", f"a thrown weapon's range is {reach}: give the thrower's S")
    return user_strength * trading_post.GRENADE_RANGES[reach]

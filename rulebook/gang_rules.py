"""Gang building between battles: composition, advancement and gang rating, for both editions.

- Composition: a house list sets limits per fighter type (one Leader, at most two Heavies) and
  share rules over categories (classic: Juves at most half the gang), plus a minimum number of
  fighters to play. Classic: 1,000 credits, at least 3 fighters, exactly one Leader, at most two
  Heavies, Juves no more than half the gang (S3 p76). 2018+ limits come from the house list data.
  The numbers arrive as data (:class:`HouseRules`); this module only reads them.
- Classic advancement (thresholds, the 2D6 Advance roll, skill tables) lives in
  ``rulebook.classic.campaign.experience``; the web app uses it from there.
- 2018+ advancement: experience spent at the published costs, each advance adding to the
  fighter's credit value (Necromunda 2018 rulebook, Advancements table, as summarised by N2
  necrodamus.org and the Goonhammer "Campaign Progression" guide). Repeats of the same
  characteristic cost 2 XP more each time, except for Juves and Prospects (N3).
- Gang rating: classic adds fighters' cost, equipment and experience (S3 p85, "gang rating");
  2018+ adds fighters' cost, equipment and advancements' credit value. Dead and Retired fighters
  are left out in both.

Source keys are those of content-facts: S1-S3 classic, N1-N3 2018+.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import characteristic_step
from rulebook.roster import pick_index, roll_amount

# --- composition ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeLimit:
    """A fighter type of a house list with how many a gang may (or must) have."""

    slug: str
    name: str
    category: str
    min_per_gang: int = 0
    max_per_gang: int | None = None


@dataclass(frozen=True)
class HouseRules:
    """A house's composition rules as content gives them.

    ``share_rules`` are dicts: ``{"kind": "max_share"|"min_share", "categories": [...], "share": "1/2"}``,
    ``{"kind": "max_count"|"min_count", "categories": [...], "count": 2}`` or
    ``{"kind": "not_fewer", "categories": [...], "than_categories": [...]}``; ``types`` (fighter type slugs)
    may stand beside or instead of ``categories`` (see :func:`_share_rule`). ``"founding": true`` and
    ``when_categories`` / ``when_types`` limit when a rule holds (see :func:`composition_breaches`).
    """

    name: str
    types: tuple[TypeLimit, ...]
    min_fighters: int | None = None
    share_rules: tuple[Mapping, ...] = ()
    sources: tuple[str, ...] = ()

    def limit_for(self, slug: str) -> TypeLimit:
        for limit in self.types:
            if limit.slug == slug:
                return limit
        raise RulesInputError("fighter_type", f"{slug!r} is not on the {self.name} house list")


@dataclass(frozen=True)
class Breach:
    """A composition rule the gang breaks. ``maximum`` breaches block a hire; the others block play."""

    rule: str
    message: str
    maximum: bool
    types: frozenset[str] = field(default_factory=frozenset)


_CATEGORY_PLURALS = {"juve": "Juves", "heavy": "Heavies", "leader": "Leaders", "champion": "Champions"}


def _categories_label(categories: Iterable[str]) -> str:
    names = [_CATEGORY_PLURALS.get(c, f"{c.capitalize()}s") for c in categories]
    return " and ".join(names)


def _plural(limit: TypeLimit, count: int) -> str:
    if count == 1:
        return limit.name
    return _CATEGORY_PLURALS.get(limit.name.lower(), f"{limit.name}s")


def _share_text(share: Fraction) -> str:
    return {Fraction(1, 2): "half", Fraction(1, 3): "a third", Fraction(1, 4): "a quarter"}.get(share, str(share))


def _rule_members(house: HouseRules, rule: Mapping, index: int, prefix: str = "") -> tuple[frozenset[str], str]:
    """The fighter type slugs a rule counts (by category, by type or both) and how to name them."""
    categories = tuple(rule.get(f"{prefix}categories") or ())
    types = frozenset(rule.get(f"{prefix}types") or ())
    if not categories and not types:
        raise RulesInputError(f"composition_rules[{index}].{prefix}categories", "names no fighter category or type")
    members = frozenset(t.slug for t in house.types if t.category in categories or t.slug in types)
    names = [_categories_label(categories)] if categories else []
    names += [t.name for t in house.types if t.slug in types and t.category not in categories]
    return members, " and ".join(n for n in names if n)


def _share_rule(house: HouseRules, index: int, rule: Mapping, roster: Sequence[str]) -> Breach | None:
    """One composition rule of the house list. Kinds:

    - ``max_share`` / ``min_share``: the counted fighters are at most / at least ``share`` of the gang;
    - ``max_count`` / ``min_count``: at most / at least ``count`` of them (one Leader among two Leader types);
    - ``not_fewer``: never fewer of them than of the fighters the ``than_categories`` / ``than_types`` name
      (Genestealer Cults: Neophyte Hybrids at least as many as the Leader, Acolytes and Aberrants together);
    - ``max_per``: at most one for every ``per`` of the fighters ``per_categories`` / ``per_types`` name, but never
      fewer than ``at_least`` allowed (Underhive Outcasts: two Champions, or one for every three Gang Fighters).

    A rule counts fighters by ``categories`` and/or ``types`` (fighter type slugs). Maximum rules block a hire;
    minimum rules and ``not_fewer`` (a gang is founded leader first) block play only.
    """
    kind = rule.get("kind")
    in_rule, label = _rule_members(house, rule, index)
    count = sum(1 for slug in roster if slug in in_rule)
    key = "-".join(rule.get("categories") or ()) or "-".join(sorted(rule.get("types") or ()))
    if kind in ("max_count", "min_count"):
        limit = int(rule["count"])
        if kind == "max_count" and count > limit:
            most = f"at most {limit}" if limit else "no"
            return Breach(f"max-count-{key}", f"{most} {label} (the gang would have {count})", True, in_rule)
        if kind == "min_count" and count < limit:
            return Breach(f"min-count-{key}", f"a gang needs at least {limit} {label} (it has {count})", False, in_rule)
        return None
    if kind == "not_fewer":
        others, others_label = _rule_members(house, rule, index, "than_")
        other_count = sum(1 for slug in roster if slug in others)
        if count < other_count:
            text = f"{label} may never be fewer than {others_label} ({count} against {other_count})"
            return Breach(f"not-fewer-{key}", text, False, in_rule | others)
        return None
    if kind == "max_per":
        base, base_label = _rule_members(house, rule, index, "per_")
        per, at_least = int(rule["per"]), int(rule.get("at_least") or 0)
        limit = max(at_least, sum(1 for slug in roster if slug in base) // per)
        if count > limit:
            floor = f"{at_least}, or " if at_least else ""
            text = f"at most {limit} {label} ({floor}one for every {per} {base_label}; the gang would have {count})"
            return Breach(f"max-per-{key}", text, True, in_rule)
        return None
    if kind not in ("max_share", "min_share"):
        raise RulesInputError(f"composition_rules[{index}].kind", f"unknown composition rule {kind!r}")
    share = Fraction(str(rule["share"]))
    total = len(roster)
    if kind == "max_share" and count > share * total:
        text = f"{label} may be at most {_share_text(share)} of the gang ({count} of {total} would be)"
        return Breach(f"max-share-{key}", text, True, in_rule)
    if kind == "min_share" and total and count < share * total:
        text = f"{label} must be at least {_share_text(share)} of the gang ({count} of {total} are)"
        return Breach(f"min-share-{key}", text, False, in_rule)
    return None


def _condition(
    house: HouseRules, index: int, rule: Mapping, roster: Sequence[str]
) -> tuple[str, frozenset[str]] | None:
    """Whom a rule with ``when_categories`` / ``when_types`` waits for: ("", ∅) for a rule that always holds, the
    fighters' name and slugs when the roster has one of them, None while it has none (the rule does not hold)."""
    if not (rule.get("when_categories") or rule.get("when_types")):
        return "", frozenset()
    members, label = _rule_members(house, rule, index, "when_")
    if not any(slug in members for slug in roster):
        return None
    return label, members


def composition_breaches(house: HouseRules, roster: Sequence[str], *, founding: bool = False) -> tuple[Breach, ...]:
    """Every composition rule the roster (fighter type slugs of fighters on the roster) breaks.

    A rule marked ``"founding": true`` holds only while the gang is founded (before its first battle): the
    Genestealer Cults' two Hybrid Acolytes (N8), the Outcasts' two Champions (Book of the Outcast p14). A rule with
    ``when_categories`` / ``when_types`` holds only while the gang has such a fighter: a new Enforcer patrol's two
    Gangers of its Captain's kind, Palanite or Subjugator (N8)."""
    counts = Counter(roster)
    for slug in counts:
        house.limit_for(slug)  # refuses a type that is not on the house list
    breaches = []
    for limit in house.types:
        count = counts.get(limit.slug, 0)
        if limit.max_per_gang is not None and count > limit.max_per_gang:
            most = "one" if limit.max_per_gang == 1 else str(limit.max_per_gang)
            text = f"at most {most} {_plural(limit, limit.max_per_gang)} per gang (the gang would have {count})"
            breaches.append(Breach(f"max-{limit.slug}", text, True, frozenset({limit.slug})))
        if count < limit.min_per_gang:
            least = "one" if limit.min_per_gang == 1 else str(limit.min_per_gang)
            text = f"a gang needs at least {least} {_plural(limit, limit.min_per_gang)} (it has {count})"
            breaches.append(Breach(f"min-{limit.slug}", text, False, frozenset({limit.slug})))
    for index, rule in enumerate(house.share_rules):
        if rule.get("founding") and not founding:
            continue
        condition = _condition(house, index, rule, roster)
        if condition is None:
            continue
        breach = _share_rule(house, index, rule, roster)
        if breach and condition[0]:
            # Hiring the fighter the rule waits for (the Captain) brings it in, so it is among the rule's types.
            breach = replace(
                breach, message=f"with a {condition[0]}, {breach.message}", types=breach.types | condition[1]
            )
        if breach and rule.get("founding"):
            breach = replace(breach, message=f"{breach.message} while the gang is founded, before its first battle")
        if breach:
            breaches.append(breach)
    if house.min_fighters and len(roster) < house.min_fighters:
        text = f"a gang needs at least {house.min_fighters} fighters to play (it has {len(roster)})"
        breaches.append(Breach("min-fighters", text, False))
    return tuple(breaches)


def hire_breaches(house: HouseRules, roster: Sequence[str], hire: str, *, founding: bool = False) -> tuple[Breach, ...]:
    """The maximum rules that hiring a fighter of type ``hire`` would break (minimums wait for play)."""
    after = composition_breaches(house, [*roster, hire], founding=founding)
    return tuple(b for b in after if b.maximum and hire in b.types)


# --- 2018+ advancement -------------------------------------------------------------------------

N18_ADVANCEMENT_SOURCE = "Necromunda 2018 rulebook, Advancements table (via N2 and Goonhammer); repeats +2 XP (N3)"

# Experience cost and credit value of +1 to a characteristic (a target number drops by one).
N18_CHARACTERISTIC_COSTS = {
    "Wil": (3, 5),
    "Int": (3, 5),
    "Ld": (4, 10),
    "Cl": (4, 10),
    "I": (5, 10),
    "M": (5, 10),
    "WS": (6, 20),
    "BS": (6, 20),
    "S": (8, 30),
    "T": (8, 30),
    "W": (12, 45),
    "A": (12, 45),
}
# (access, how chosen) → (XP, credits).
N18_SKILL_COSTS = {
    ("primary", "chosen"): (9, 20),
    ("secondary", "chosen"): (12, 35),
    ("primary", "random"): (6, 20),
    ("secondary", "random"): (9, 35),
}
# Fighter categories that buy advancements; Gangers roll on their own table (rulebook.n18.advancement).
# Brutes advance as Specialists do; Hangers-on and Hired Guns never advance (2023 Core, Gang Additions).
N18_ADVANCING_CATEGORIES = frozenset({"leader", "champion", "juve", "prospect", "specialist", "brute"})
# These pay no more for repeating a characteristic (N3).
N18_NO_ESCALATION = frozenset({"juve", "prospect"})


@dataclass(frozen=True)
class AdvanceCost:
    xp: int
    value: int
    why: str


def n18_characteristic_cost(characteristic: str, *, category: str, times_taken: int) -> AdvanceCost:
    """XP and credit value of raising ``characteristic`` again after ``times_taken`` earlier raises."""
    if characteristic not in N18_CHARACTERISTIC_COSTS:
        raise RulesInputError("characteristic", f"{characteristic!r} is not a 2018+ characteristic")
    _check_category(category)
    xp, value = N18_CHARACTERISTIC_COSTS[characteristic]
    extra = 0 if category in N18_NO_ESCALATION else 2 * times_taken
    why = f"+1 {characteristic}: {xp} XP" + (f" +{extra} for {times_taken} earlier" if extra else "")
    return AdvanceCost(xp + extra, value, f"{why}, worth {value} credits ({N18_ADVANCEMENT_SOURCE})")


def n18_skill_cost(*, access: str, random: bool, category: str) -> AdvanceCost:
    _check_category(category)
    how = "random" if random else "chosen"
    if (access, how) not in N18_SKILL_COSTS:
        raise RulesInputError("access", f"{access!r} is not primary or secondary skill access")
    xp, value = N18_SKILL_COSTS[(access, how)]
    return AdvanceCost(xp, value, f"{how} {access} skill: {xp} XP, worth {value} credits ({N18_ADVANCEMENT_SOURCE})")


def n18_improved(characteristic: str, value: int) -> int:
    """The number after +1: one higher, or one lower for a target number (BS 4+ becomes 3+)."""
    return value + characteristic_step(characteristic, "improve")


def n18_table_full(skills: Sequence[str], known: Iterable[str]) -> bool:
    """Whether the fighter already has every one of a table's ``skills``: no random skill is left there."""
    return set(skills) <= set(known)


def n18_random_skill(table: str, skills: Sequence[str], known: Iterable[str], dice: DiceSource) -> str:
    """A random skill from ``table``, rolled again while the fighter already has it."""
    if n18_table_full(skills, known):
        raise RulesInputError("skill_table", f"the fighter already has every {table} skill; choose another table")
    known = set(known)
    while True:
        skill = skills[pick_index(len(skills), dice, f"{table} skill")]
        if skill not in known:
            return skill


def _check_category(category: str) -> None:
    if category in ("hanger_on", "hired_gun"):
        who = "Hangers-on" if category == "hanger_on" else "Hired Guns"
        raise RulesInputError("fighter.category", f"{who} never gain Experience or Advancements")
    if category not in N18_ADVANCING_CATEGORIES:
        raise RulesInputError(
            "fighter.category", f"{category.capitalize()}s do not buy Advancements: they roll on their own 2D6 table"
        )


# --- hiring ------------------------------------------------------------------------------------


def roll_starting_experience(expr: str, dice: DiceSource, purpose: str) -> int:
    """Starting experience written as a sum of terms: ``"60+D6"`` (classic Heavies, S3 p85), ``"0"``."""
    terms = [t.strip() for t in expr.split("+")]
    if not all(terms):
        raise RulesInputError("starting_xp", f"{expr!r} is not a sum such as 60+D6")
    return sum(roll_amount(term, dice, purpose) for term in terms)


# --- gang rating -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedFighter:
    cost: int
    equipment: int
    experience: int = 0
    advancements: int = 0
    on_roster: bool = True


def fighter_value(edition: str, fighter: RatedFighter) -> int:
    """Classic: cost + equipment + experience (S3 p85). 2018+: cost + equipment + advancements' value."""
    if edition == "classic":
        return fighter.cost + fighter.equipment + fighter.experience
    if edition == "n18":
        return fighter.cost + fighter.equipment + fighter.advancements
    raise RulesInputError("edition", f"unknown edition {edition!r}")


def gang_rating(edition: str, fighters: Iterable[RatedFighter]) -> int:
    """The sum of fighter values, Dead and Retired fighters left out."""
    return sum(fighter_value(edition, f) for f in fighters if f.on_roster)


# --- Hangers-on, Brutes and Hired Guns ---------------------------------------------------------

GANG_ADDITIONS_SOURCE = (
    "Necromunda Core Rulebook (2023), Gang Additions: Hangers-on and Brutes, Hired Guns "
    "(necrovox pages in yakuzadave/necroman_v2; keys N8-N11 of rulebook/data/n18/gang_additions.json)"
)
HANGER_ON, BRUTE, HIRED_GUN = "hanger_on", "brute", "hired_gun"
# Held together up to the Reputation cap; Hired Guns are hired per battle and are not part of it.
REPUTATION_CAPPED = frozenset({HANGER_ON, BRUTE})
ADDITIONS = REPUTATION_CAPPED | {HIRED_GUN}
# Reputation from which each number of Hangers-on and Brutes is allowed: 1-4 one, 5-9 two, ... 20+ five.
_REPUTATION_STEPS = ((20, 5), (15, 4), (10, 3), (5, 2), (1, 1))


def hangers_on_cap(reputation: int) -> int:
    """How many Hangers-on and Brutes (together) a gang of this Reputation may hold (N11's table).

    Below 1 the table has no row, so none: a gang founds with Reputation 0 in this app, and an
    arbitrator's override lets a club that starts gangs higher recruit them at founding.
    """
    for least, allowed in _REPUTATION_STEPS:
        if reputation >= least:
            return allowed
    return 0


def hangers_on_excess(reputation: int, held: int) -> int:
    """How many Hangers-on and Brutes must go when Reputation has dropped below what the gang holds."""
    return max(0, held - hangers_on_cap(reputation))


def addition_hire_breaches(hire: TypeLimit, held: Sequence[TypeLimit], *, reputation: int) -> tuple[Breach, ...]:
    """What recruiting ``hire`` would break, given the additions the gang ``held`` (on the roster; for a
    Hired Gun, those hired for the same battle). Each type has its own limit ("0-2 Rogue Docs"), and
    Hangers-on and Brutes together may not pass the Reputation cap. They do not count toward any other
    fighter's limit (N11), so the house list's rules never see them."""
    breaches = []
    same = 1 + sum(1 for t in held if t.slug == hire.slug)
    if hire.max_per_gang is not None and same > hire.max_per_gang:
        most = "one" if hire.max_per_gang == 1 else str(hire.max_per_gang)
        text = f"at most {most} {hire.name} per gang (the gang would have {same})"
        if hire.category == HIRED_GUN:
            text = f"at most {most} {hire.name} for one battle (the gang would have {same})"
        breaches.append(Breach(f"max-{hire.slug}", text, True, frozenset({hire.slug})))
    if hire.category in REPUTATION_CAPPED:
        count = 1 + sum(1 for t in held if t.category in REPUTATION_CAPPED)
        cap = hangers_on_cap(reputation)
        if count > cap:
            allowed = f"{cap} Hanger-on or Brute" if cap == 1 else f"{cap} Hangers-on and Brutes"
            text = f"Reputation {reputation} allows {allowed} (the gang would have {count})"
            breaches.append(Breach("reputation-cap", text, True, frozenset({hire.slug})))
    return tuple(breaches)


def fights_in_crews(category: str, special_rules: Iterable[str]) -> bool:
    """Whether a fighter is chosen (or picked at random) for a crew like a Ganger.

    Hangers-on stay at the hideout unless their card says Part of the Crew (or Gang Fighter); Hired
    Guns are not counted when choosing a crew but join it afterwards (You Get What You Pay For).
    """
    if category == HIRED_GUN:
        return False
    if category == HANGER_ON:
        return any(str(rule).startswith(("Part of the Crew", "Gang Fighter")) for rule in special_rules)
    return True

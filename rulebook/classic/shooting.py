"""Shooting in the 1995 rules: the ``classic shoot`` action (docs/rulebook-cli.md).

Follows the 1995 rulebook, Shooting: "Range", "Hitting the Target" (the BS chart; a 1 always
misses), "Hit Modifiers" (cover, overwatch, rapid moving, small and large targets, the weapon's
range modifiers), "7+ Hit" (a 6 then 4+/5+/6+; 10 or more cannot hit), "Pinned", "Shooting into
Hand-to-Hand Combat", "Sustained Shooting", "Out of Range", Overwatch; Advanced Rules: "Stray
Shots". What a hit does is :mod:`rulebook.classic.resolution`; ammo and explosions are
:mod:`rulebook.classic.ammo`; blast markers, scatter and grenades :mod:`rulebook.classic.blast`.

Query (beyond the contract): ``"profile"`` picks a named profile of a content weapon;
``shooter.S`` is needed to throw a grenade; ``shooter.T``/``save``/``wounds_left`` add the
harm an exploding weapon does to him; ``target.flesh_wounds``, ``target.WS``/``BS`` (the 0/0
rule); ``target.down``: a fighter already down ("Shooting at a Fighter Who is Down": a further wound rolls
on the Injury table again, Down again changes nothing, Out of Action removes him; he is not pinned, and the
``down`` outcome then means he stays down); ``sustained_fire_dice`` (default: all the weapon has; 0 for a single shot);
``under_template``: ``wholly`` or ``partially`` for flamers; ``hand_to_hand_opponents``: how
many fighters the target is fighting (a hit lands on each of them as likely as on him, and
nobody is pinned); ``friend_in_path``: a friend within 1/2" of the line of fire (stray shots);
``spread_hits``: sustained fire keeps one hit on the target and spreads the rest;
``bystanders``: fighters near the target under a blast marker or flamer template, each a target
object with ``"under": "wholly"`` or ``"partially"`` (hit on a further 4+).

The answer is the contract's plus ``range``, ``modifiers`` (each with why), ``p_pinned``,
``p_explodes``, and where they apply ``hits`` (sustained fire), ``scatter_if_missed``,
``p_hit_other_fighter``, ``p_stray_hit``, ``bystanders``, ``explosion_on_shooter``. Every
probability has its exact fraction beside it. The dice-by-dice side is
:mod:`rulebook.classic.shooting_roll`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rulebook.classic import ammo, armoury, blast
from rulebook.classic.resolution import (
    DAMAGE,
    DOWN,
    NO_WOUND,
    OUT_OF_ACTION,
    OUTCOMES,
    SAVED,
    Hit,
    Target,
    hit_odds,
    hits_series,
)
from rulebook.dice import D6, JAM, SUSTAINED_FIRE, certain, combine
from rulebook.errors import RulesInputError
from rulebook.output import as_float
from rulebook.query import Query
from rulebook.tables import Chart

MISS = "miss"
SHOT_OUTCOMES = (MISS, *OUTCOMES)
COVER = {"none": 0, "partial": -1, "cover": -2}
MODIFIERS = {
    "overwatch_fleeting": ("overwatch: appearing or disappearing target", -1),
    "overwatch_charging": ("overwatch: charging target", -1),
    "rapid_moving": ("rapid moving target", -1),
    "small_target": ("small target", -1),
    "large_target": ("large target", 1),
}
SEVEN_PLUS = {7: 4, 8: 5, 9: 6}  # second die needed after a 6; 10 or more cannot hit

TO_HIT = Chart(
    name="to-hit",
    title="To-hit chart",
    key="BS",
    rows={
        bs: {"score": 7 - bs, "d6_needed": max(2, 7 - bs), "note": "a roll of 1 always misses"} for bs in range(1, 11)
    },
    source="1995 rulebook, Shooting: Hitting the Target (score = 7 - BS), 7+ Hit",
)


@dataclass(frozen=True)
class ToHit:
    """The D6 a shot needs: ``needed`` then, for 7 to 9, a second die of ``then``; None: no hit."""

    needed: int | None
    then: int | None = None

    @classmethod
    def for_score(cls, score: int) -> ToHit:
        if score <= 6:
            return cls(max(2, score))
        if score in SEVEN_PLUS:
            return cls(6, SEVEN_PLUS[score])
        return cls(None)

    def p_hit_on(self, first: int) -> Fraction:
        """Chance of a hit once the first die shows ``first``."""
        if self.needed is None or first < self.needed:
            return Fraction(0)
        return Fraction(1) if self.then is None else Fraction(7 - self.then, 6)

    def as_json(self) -> dict:
        return {"needed": self.needed, "then": self.then}


def to_hit(bs: int, modifier: int) -> ToHit:
    """The to-hit roll for Ballistic Skill ``bs`` with the summed hit ``modifier``."""
    return ToHit.for_score(7 - bs - modifier)


# --- reading the query ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    bs: int
    profile: armoury.Profile
    weapon_name: str | None
    thrown: bool
    target: Target
    distance: float | None
    modifiers: tuple  # (why, value) pairs, range included
    band: str  # short, long, out_of_range, template
    sustained_dice: int
    partial_template: bool
    opponents: int
    friend_in_path: bool
    shooter: Target | None
    spread_hits: bool = False
    bystanders: tuple = ()  # (Target, wholly under the marker or template)

    @property
    def hit(self) -> Hit:
        return Hit(self.profile.strength, self.profile.damage, self.profile.save_mod)

    @property
    def explosion(self) -> Hit:
        """An exploding weapon strikes its firer with its own Strength less 1."""
        return replace(self.hit, strength=self.profile.strength - 1)

    @property
    def flamer_tests_ammo(self) -> bool:
        """A flamer makes an Ammo roll every time it fires (a one-shot one is simply spent)."""
        return self.band == "template" and self.profile.ammo_roll is not None and not self.profile.one_shot

    @property
    def to_hit(self) -> ToHit:
        if self.band == "out_of_range":
            return ToHit(None)
        return to_hit(self.bs, sum(v for _, v in self.modifiers))


def _profile(query: Query) -> tuple[armoury.Profile, str | None, bool]:
    raw = query.raw("weapon")
    if isinstance(raw, str):
        found = armoury.weapon(raw)
        profile = found.profile(query.str("profile") if query.has("profile") else None)
        return profile, found.name + (f" ({profile.name})" if profile.name else ""), found.is_grenade
    w = query.sub("weapon")
    template = w.choice("template", armoury.TEMPLATES, default=None)
    ranged = template != "flamer" and not w.bool("grenade")
    profile = armoury.Profile(
        short_range=w.int("short_range", 0, 100) if ranged else None,
        long_range=w.int("long_range", 0, 100) if ranged else None,
        hit_short=w.int("hit_short", -5, 5, default=0),
        hit_long=w.int("hit_long", -5, 5, default=0),
        strength=w.int("strength", 1, 10),
        damage=w.choice("damage", DAMAGE, default="1"),
        save_mod=w.int("save_mod", -10, 0, default=0),
        ammo_roll=w.choice("ammo_roll", [None, "auto", "2+", "3+", "4+", "5+", "6+"], default=None),
        template=template,
        sustained_fire=w.int("sustained_fire", 0, 3, default=0),
    )
    if template == "flamer" and profile.sustained_fire:
        raise RulesInputError(w.field("sustained_fire"), "a flamer template cannot fire sustained bursts")
    if ranged and profile.long_range < profile.short_range:
        raise RulesInputError(w.field("long_range"), "must not be shorter than short_range")
    return profile, None, w.bool("grenade")


def _target(q: Query) -> Target:
    """A fighter shot at. ``down``: already down, so he has no wounds left and each further wound rolls on the
    Injury table again (1995 rulebook, Shooting: "Shooting at a Fighter Who is Down")."""
    down = q.bool("down")
    if down and q.int("wounds_left", 0, 10, default=0):
        raise RulesInputError(q.field("wounds_left"), "a fighter who is down has no wounds left (give 0)")
    return Target(
        T=q.int("T", 1, 10),
        wounds_left=0 if down else q.int("wounds_left", 0, 10, default=1),
        down=down,
        save=q.int("save", 2, 6, default=None) if q.has("save") else None,
        flesh_wounds=q.int("flesh_wounds", 0, 10, default=0),
        WS=q.int("WS", 0, 10) if q.has("WS") else None,
        BS=q.int("BS", 0, 10) if q.has("BS") else None,
    )


def refusal(profile: armoury.Profile) -> str | None:
    """Why this profile cannot be shot here, or None: a weapon without a Strength and Damage (smoke, gas, the
    web pistol) does its work by a special rule that the shooting action does not resolve."""
    if not isinstance(profile.strength, int) or profile.damage is None:
        return "it makes no hit that wounds, and its special effect is not resolved by the assistant yet; roll it at the table"
    return None


def weapon_refusal(query: Query) -> str | None:
    """:func:`refusal` for the weapon a query names or spells out."""
    profile, _, _ = _profile(query)
    return refusal(profile)


def range_bands(query: Query, strength: int) -> dict:
    """The farthest distance of each range band of the query's weapon, for a shooter of this Strength:
    ``{"short": inches, "long": inches}``; a thrown grenade has only its throw; a flamer template none."""
    profile, _, thrown = _profile(query)
    if thrown:
        reach = blast.grenade_range(strength)
        return {"short": reach, "long": None}
    if profile.template == "flamer":
        return {"short": None, "long": None}
    return {"short": profile.short_range, "long": profile.long_range}


def read_shot(query: Query) -> Shot:
    shooter = query.sub("shooter")
    shooter.accept("S")  # needed only to throw a grenade
    bs = shooter.int("BS", 0, 10)
    profile, name, thrown = _profile(query)
    refused = refusal(profile)
    if refused:
        raise RulesInputError("weapon", f"{name or 'this weapon'}: {refused}")
    target = _target(query.sub("target"))
    modifiers = []
    if profile.template == "flamer":
        band, distance = "template", None
        # A template hits whoever it covers, wherever they stand: no roll to hit, so no hit modifier applies.
        query.accept("distance", "cover", "modifiers")
    else:
        distance = query.number("distance", 0, 1000)
        if thrown:
            reach = blast.grenade_range(shooter.int("S", 1, 10))
            band = "short" if distance <= reach else "out_of_range"
        elif distance <= profile.short_range:
            band = "short"
        elif distance <= profile.long_range:
            band = "long"
        else:
            band = "out_of_range"
        weapon_mod = {"short": profile.hit_short, "long": profile.hit_long}.get(band, 0)
        if weapon_mod and not thrown:
            modifiers.append((f"{band} range", weapon_mod))
        cover = query.choice("cover", COVER, default="none")
        if COVER[cover]:
            modifiers.append((f"{cover} cover" if cover == "partial" else "in cover", COVER[cover]))
        chosen = query.choices("modifiers", MODIFIERS)
        if {"small_target", "large_target"} <= set(chosen):
            raise RulesInputError("modifiers", "a target cannot be both small and large")
        if {"overwatch_fleeting", "overwatch_charging"} <= set(chosen):
            # The rulebook gives one overwatch penalty for a fleeting or a charging target, not two.
            chosen = [m for m in chosen if m != "overwatch_charging"]
        modifiers.extend(MODIFIERS[m] for m in dict.fromkeys(chosen))
    opponents = query.int("hand_to_hand_opponents", 0, 5, default=0)
    if opponents and band == "template":
        raise RulesInputError(
            "hand_to_hand_opponents", "a flamer hits whoever its template covers: ask once per fighter"
        )
    dice_allowed = profile.sustained_fire
    sustained = query.int("sustained_fire_dice", 0, dice_allowed, default=dice_allowed)
    has_shooter_profile = shooter.has("T")
    bystanders = ()
    if query.has("bystanders"):
        if profile.template is None:
            raise RulesInputError(
                "bystanders", "only a blast marker or a flamer template hits fighters near the target"
            )
        bystanders = tuple(
            (_target(b), b.choice("under", ["wholly", "partially"], default="partially") == "wholly")
            for b in query.items("bystanders")
        )
    return Shot(
        bs=bs,
        profile=profile,
        weapon_name=name,
        thrown=thrown,
        target=target,
        distance=distance,
        modifiers=tuple(modifiers),
        band=band,
        sustained_dice=sustained,
        partial_template=query.choice("under_template", ["wholly", "partially"], default="wholly") == "partially",
        opponents=opponents,
        friend_in_path=query.bool("friend_in_path"),
        shooter=_target(shooter) if has_shooter_profile else None,
        spread_hits=query.bool("spread_hits"),
        bystanders=bystanders,
    )


# --- exact odds --------------------------------------------------------------------------------


def _volley(count: int) -> dict:
    """Distribution of (hits, jams) for ``count`` Sustained Fire dice."""
    face = {(0, 1) if f == JAM else (f, 0): p for f, p in SUSTAINED_FIRE.distribution().items()}
    total = certain((0, 0))
    for _ in range(count):
        total = combine(total, face, lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return total


def shot_events(shot: Shot) -> dict:
    """Exact distribution of (hits on the target or MISS, Ammo rolls due)."""
    events: dict = {}

    def add(key, p):
        events[key] = events.get(key, 0) + p

    volley = _volley(shot.sustained_dice) if shot.sustained_dice else certain((1, 0))
    on_target = Fraction(1, shot.opponents + 1)
    if shot.band == "template":
        p_hit = blast.PARTIAL_HIT if shot.partial_template else Fraction(1)
        rolls = int(shot.flamer_tests_ammo)
        add((1, rolls), p_hit)
        add((MISS, rolls), 1 - p_hit)
        return events
    needed = shot.to_hit
    for first, p_first in D6.distribution().items():
        six = int(first == 6 and shot.profile.ammo_roll is not None)
        p_hit = needed.p_hit_on(first)
        add((MISS, six), p_first * (1 - p_hit))
        for (hits, jams), q in volley.items():
            rolls = six + (jams if shot.profile.ammo_roll is not None else 0)
            # Spread hits: one stays on the target, the rest go to other fighters within 4".
            landed = (min(hits, 1) if shot.spread_hits else hits) or MISS
            add((landed, rolls), p_first * p_hit * q * on_target)
            add((MISS, rolls), p_first * p_hit * q * (1 - on_target))
    return events


def shoot_odds(query: Query) -> dict:
    shot = read_shot(query)
    events = shot_events(shot)
    outcome = {k: Fraction(0) for k in SHOT_OUTCOMES}
    rolls: dict = {}
    hits: dict = {}
    most = max((landed for landed, _ in events if landed != MISS), default=0)
    series = hits_series(shot.hit, shot.target, most)
    for (landed, n), p in events.items():
        rolls[n] = rolls.get(n, 0) + p
        hits[0 if landed == MISS else landed] = hits.get(0 if landed == MISS else landed, 0) + p
        if landed == MISS:
            outcome[MISS] += p
            continue
        for key, q in series[landed].items():
            outcome[key] += p * q
    p_hit = 1 - outcome[MISS]
    answer = {
        "weapon": shot.weapon_name,
        "range": shot.band,
        "modifiers": [{"why": why, "value": v} for why, v in shot.modifiers],
        "to_hit": None if shot.band == "template" else shot.to_hit.as_json(),
        "p_hit": p_hit,
        "p_wound": p_hit - outcome[NO_WOUND],
        "p_unsaved": p_hit - outcome[NO_WOUND] - outcome[SAVED],
        "outcome": outcome,
        # A hit pins a fighter who is neither down nor out, unless he is fighting hand-to-hand.
        "p_pinned": Fraction(0)
        if shot.opponents or shot.target.down
        else p_hit - outcome[DOWN] - outcome[OUT_OF_ACTION],
        **ammo.ammo_odds(shot.profile, rolls),
    }
    if shot.sustained_dice:
        answer["hits"] = hits  # hits on the target (with spread_hits, the rest went to others)
    if shot.opponents:
        answer["p_hit_other_fighter"] = _p_roll_hits(shot) * Fraction(shot.opponents, shot.opponents + 1)
    if shot.friend_in_path and shot.band != "template":
        answer["p_stray_hit"] = Fraction(1, 6) * Fraction(1, 6)
    if shot.profile.template == "blast" and shot.band != "out_of_range":
        answer["scatter_if_missed"] = blast.scatter_odds(shot.distance, shot.thrown)
    if shot.bystanders:
        answer["bystanders"] = [_bystander_odds(shot, target, wholly) for target, wholly in shot.bystanders]
    if shot.shooter is not None and answer["p_explodes"]:
        answer["explosion_on_shooter"] = hit_odds(shot.explosion, shot.shooter)
    return _render(answer)


def _bystander_odds(shot: Shot, target: Target, wholly: bool) -> dict:
    """A fighter near the target: hit if the marker lands on the target (or the template covers
    him), on a further 4+ if he is only partly under it; one hit, no scatter counted."""
    placed = Fraction(1) if shot.band == "template" else _p_roll_hits(shot)
    p_hit = placed * (1 if wholly else blast.PARTIAL_HIT)
    outcome = {MISS: 1 - p_hit, **{k: p_hit * p for k, p in hit_odds(shot.hit, target).items()}}
    return _render({"p_hit": p_hit, "outcome": outcome})


def _p_roll_hits(shot: Shot) -> Fraction:
    """Chance that the to-hit roll succeeds, whoever the shot then strikes."""
    return sum((p * shot.to_hit.p_hit_on(f) for f, p in D6.distribution().items()), Fraction(0))


def _render(answer: dict) -> dict:
    """Fractions become a float with its exact string beside it (docs/rulebook-cli.md)."""
    out = {}
    for key, value in answer.items():
        if isinstance(value, Fraction) or (isinstance(value, int) and key.startswith("p_")):
            out[key] = as_float(Fraction(value))
            out[f"{key}_exact"] = str(Fraction(value))
        elif isinstance(value, dict) and value and all(isinstance(v, Fraction) for v in value.values()):
            out[key] = {str(k): as_float(v) for k, v in value.items()}
            out[f"{key}_exact"] = {str(k): str(v) for k, v in value.items()}
        elif isinstance(value, dict):
            out[key] = _render(value)
        else:
            out[key] = value
    return out

"""The 2018+ Shoot action against one fighter: range, the hit roll and its modifiers, the Firepower dice, then
each hit resolved in turn.

Sources (numbers are facts; the wording here is ours):

- Hit modifiers, the improbable shot, the Firepower dice rolled with every attack by a weapon with an Ammo
  value (even out of range or with a template), its Ammo symbol calling for an Ammo test (a D6 below the Ammo
  value fails and the weapon is Out of Ammo), Blast markers (a hit leaves the marker on the target, a miss
  scatters it D6" in the Scatter dice's direction; every fighter under it is hit), Flame templates (every
  fighter under it is hit, no hit roll) and the +1/+2 save for cover against either: the 2023 core rulebook,
  https://necrovox.org/docs/the-rules/shooting (read through the copy in the public repository
  yakuzadave/necroman_v2, ``necrovox_docs/Necromunda_Docs/6-the-rules/12-shooting.md``), and the project's
  content facts section 3 (N1-N3).
- The Firepower dice's faces: that page says most faces show one, two or three bullet holes and one shows the
  Ammo symbol, and that rolling the symbol does not make the attack miss. The split 1, 1, 2, 2, 3 and the
  Ammo face with one bullet hole is the physical dice as we know it; no public text found states it, so it is
  an assumption the answers name (``FIREPOWER_ASSUMPTION``).
- Rapid Fire (X): a hit scores as many hits as the bullet holes shown; up to X Firepower dice may be rolled;
  an Ammo test for each Ammo symbol; one failure is Out of Ammo, two or more jam the weapon for the battle.
  Unstable: an Ammo symbol also calls for a D6, and on 1-3 the weapon overloads and takes the attacker Out of
  Action (the attack is still resolved). Scattershot: D6 wound rolls for each hit. Knockback: a hit roll at or
  above the target's Strength moves them 1", and a blocked fighter takes +1 Damage. Scarce weapons cannot be
  reloaded; Plentiful ones reload without an Ammo test. Flak armour: 6+, and 5+ against Blast markers and
  Flame templates (2023; BSData's 2019 text names Blast markers only). BSData necromunda-gang-war
  ``Necromunda-Gang-War.gst`` shared rules (https://github.com/BSData/necromunda-gang-war) and
  https://necrovox.org/docs/armoury/armour.
- Gas and Toxin (no wound roll: a D6 at or above Toughness, or a 6, brings one Injury roll; Gas allows no
  save) and grenades (no Firepower dice: an Ammo test after every throw, and a failure is the last of that
  grenade): https://necrovox.org/docs/gang-fighters-and-their-weaponry/weapon-traits (the copy's
  ``necrovox_docs_flat/3-gang-fighters-and-their-weaponry/6-weapon-traits.md``).
- Rapid Fire hits split between fighters, and the Flash, Web, Smoke and Graviton Pulse traits: the 2023 core
  rulebook's weapon traits (``necrovox_docs_flat/3-gang-fighters-and-their-weaponry/6-weapon-traits.md`` in the
  public repository yakuzadave/necroman_v2) and its conditions (``necrovox_docs_flat/4-general-principles/
  10-conditions.md``: Blind, Webbed). Flash: a hit makes no wound roll; the fighter tests Initiative (a D6 at or
  above I) and on a failure is Blind (loses their Ready marker, or gains none next round; until next activated
  makes only Reaction attacks, hitting on natural 6s). Web: a successful wound roll inflicts no wound, save or
  Injury: the fighter is Webbed (treated as Seriously Injured, rolls Recovery in the End phase). Smoke: no hit on
  any fighter and no pinning; a cloud 2.5" around where the marker lands blocks line of sight and clears on a D6
  of 4 or less in each End phase. Graviton Pulse: :mod:`rulebook.n18.resolution`; its marker stays for the
  round and moving through it costs double.
- Scatter (Shooting, Blast Markers, ``necrovox_docs_flat/6-the-rules/12-shooting.md`` there): a marker that
  misses moves the D6's inches in the Scatter dice's direction (the small arrow on a Hit); a Hit with a 1 calls for
  a further D6: 2-6 a dud (the attack ends), 1 a misfire (the marker is centred on the shooter). The Scatter dice
  has two Hit faces and four arrows (``necrovox_docs_flat/2-weapons-of-gang-war/2-weapons-of-gang-war.md``).
- Weapon profiles from ``rulebook/data/n18/trading_post.json``.

The query, read by :class:`rulebook.n18.shot.Shot` (docs/rulebook-cli.md's classic shape, in 2018+ terms):
``shooter`` {``BS``, ``S`` for thrown weapons}, ``weapon`` (a Trading Post name with ``profile``, or a profile
written out), ``target`` {``T``, ``W``, ``flesh_wounds``, ``state``, ``save`` or ``armour`` (a Trading Post
name, ``flak`` will do), ``under_marker``, ``cover_from_marker``, ``S`` with ``knockback_blocked``},
``distance``, ``cover``, ``modifiers``, ``firepower_dice`` (Rapid Fire, 1 to X, default X) and
``extra_targets`` (other fighters under a Blast marker or Flame template), ``also_under`` (this target is one more
fighter under the marker or template of an attack already resolved: no Firepower dice or Ammo test of its own),
``split_to`` (Rapid Fire: other fighters within 3" of the target, each taking up to its ``hits`` of the spare hits,
in the order given; the rules let the shooter allocate them before any wound roll, so the query says beforehand
how they would be allocated), ``scatter`` (roll the Scatter dice here when a Blast marker misses), ``target.I``
(Flash) and ``target.S`` (Graviton Pulse), ``target.wargear`` (a respirator, filter plugs or an industrial
respirator against Gas, photo-goggles against Flash: :mod:`rulebook.n18.wargear`). Dice a player enters for ``roll``: see :func:`roll`.

A scattered Blast marker's landing place cannot be known, so for the target a scatter counts as a miss, and a
fighter the marker lands on is asked about with ``target.under_marker``.
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import (
    AMMO_FACE,
    D6,
    FIREPOWER,
    HIT,
    SCATTER,
    DiceSource,
    Dist,
    certain,
    chain,
    combine,
    map_dist,
    mix,
)
from rulebook.dice import probability as chance
from rulebook.n18 import trading_post
from rulebook.n18.checks import d6_test
from rulebook.n18.damage import classify, fighter_json
from rulebook.n18.resolution import (
    MISS,
    Attack,
    attack_faces,
    canonical_face,
    hit_needed,
    later_step,
    resolve_hit,
    roll_hit,
    roll_hit_resolution,
    save_target,
    wound_succeeds,
    wound_target,
)
from rulebook.n18.shot import Shot
from rulebook.output import dist, prob
from rulebook.query import Query

MODELLED = frozenset(
    {
        "Power",
        "Rending",
        "Shock",
        "Melta",
        "Template",
        "Blast",
        "Rapid Fire",
        "Scattershot",
        "Knockback",
        "Unstable",
        "Scarce",
        "Limited",
        "Plentiful",
        "Gas",
        "Toxin",
        "Grenade",
        "Pulverise",
        "Pistol",
        "Sidearm",
        "Melee",
        "Flash",
        "Web",
        "Smoke",
        "Graviton Pulse",
    }
)
OUTCOMES = ("miss", "no_wound", "saved", "wound_lost", "flesh_wound", "seriously_injured", "out_of_action")
UNSTABLE_OVERLOAD = 3  # a D6 of 3 or less overloads an Unstable weapon
SMOKE_RADIUS = '2.5"'  # the smoke cloud's reach from the centre of its marker
SMOKE_CLEARS = 4  # in each End phase a D6 of 4 or less clears the cloud
MISFIRE = 1  # a Hit and a 1 on the scatter D6, then a 1 on a further D6: the marker is centred on the shooter
EFFECT_CONDITION = {"Flash": "Blind", "Web": "Webbed"}
FIREPOWER_ASSUMPTION = (
    "Firepower dice faces 1, 1, 2, 2, 3 bullet holes and the Ammo symbol with one bullet hole (entered as 1a)"
)


# --- the Firepower dice ------------------------------------------------------------------------


def bullet_holes(face) -> int:
    return 1 if face == AMMO_FACE else face


def firepower(count: int) -> Dist:
    """Exact distribution of (bullet holes, Ammo symbols) shown by ``count`` Firepower dice."""
    one = map_dist(FIREPOWER.distribution(), lambda f: (bullet_holes(f), int(f == AMMO_FACE)))
    total: Dist = certain((0, 0))
    for _ in range(count):
        total = combine(total, one, lambda a, b: (a[0] + b[0], a[1] + b[1]))
    return total


def ammo_fail(ammo: str | None) -> Fraction:
    """Chance one Ammo test fails: a D6 below the Ammo value."""
    return Fraction(0) if ammo is None else Fraction(int(ammo[:-1]) - 1, 6)


def ammo_failures(symbols: int, ammo: str | None) -> Dist:
    """Exact distribution of failed Ammo tests, one test per Ammo symbol."""
    one = {True: ammo_fail(ammo), False: 1 - ammo_fail(ammo)}
    total: Dist = certain(0)
    for _ in range(symbols):
        total = combine(total, one, lambda n, failed: n + failed)
    return total


# --- exact odds ----------------------------------------------------------------------------------


def hit_ladder(attack: Attack, fighter, face, most: int) -> list[Dist]:
    """The fighter after 0, 1 ... ``most`` wound rolls from hits scored with the natural hit ``face``."""
    ladder = [certain((MISS, 0, fighter))]
    for _ in range(most):
        ladder.append(chain(ladder[-1], lambda state: _next_hit(attack, state, face)))
    return ladder


def _next_hit(attack: Attack, state: tuple, face) -> Dist:
    step, injuries, fighter = state
    return map_dist(resolve_hit(attack, fighter, face), lambda r: (later_step(step, r[0]), injuries + r[1], r[2]))


def scored_hits(shot: Shot) -> Dist:
    """How many hits a successful hit roll scores: the bullet holes shown for Rapid Fire, else one (none for Smoke,
    which hits nobody)."""
    if shot.effect == "Smoke":
        return certain(0)
    if not shot.rapid_fire or shot.also_under:
        return certain(1)
    return map_dist(firepower(shot.firepower_dice), lambda fp: fp[0])


def wound_rolls(shot: Shot, hits: int) -> Dist:
    """How many wound rolls ``hits`` hits make: one each, or D6 each for Scattershot."""
    if "Scattershot" not in shot.traits:
        return certain(hits)
    total: Dist = certain(0)
    for _ in range(hits):
        total = combine(total, D6.distribution(), lambda a, b: a + b)
    return total


def hits_distribution(shot: Shot, index: int = 0) -> Dist:
    """How many hits the target (``index`` 0) or a ``split_to`` fighter (1, 2...) takes (before Scattershot's wound
    rolls)."""
    if not shot.in_range:
        return certain(0)
    p_hit = 1 - attack_faces(shot.attack).get(MISS, 0)
    shares = map_dist(scored_hits(shot), lambda n: shot.allocation(n)[index])
    return mix([(1 - p_hit, certain(0)), (p_hit, shares)])


def _aimed(shot: Shot, index: int) -> tuple[Attack, object]:
    """The attack and the fighter of the target (``index`` 0) or of a ``split_to`` fighter."""
    if index == 0:
        return shot.attack, shot.fighter
    attack, fighter, _ = shot.split_to[index - 1]
    return attack, fighter


def results(shot: Shot, index: int = 0) -> Dist:
    """Exact distribution of (furthest step, Injury dice, fighter after) for the whole shot, for the target
    (``index`` 0) or a ``split_to`` fighter (1, 2...)."""
    attack, fighter = _aimed(shot, index)
    if not shot.in_range:
        return certain((MISS, 0, fighter))
    shares = map_dist(scored_hits(shot), lambda n: shot.allocation(n)[index])
    rolls = chain(shares, lambda hits: wound_rolls(shot, hits))
    most = max(rolls)

    def after_face(face) -> Dist:
        if face == MISS:
            return certain((MISS, 0, fighter))
        ladder = hit_ladder(attack, fighter, face, most)
        return chain(rolls, lambda n: ladder[n])

    return chain(map_dist(attack_faces(shot.attack), lambda f: canonical_face(attack, f)), after_face)


def ammo_symbols(shot: Shot) -> Dist:
    """How many Ammo tests the attack calls for: one per Ammo symbol, or always one for a grenade."""
    if shot.also_under:
        return certain(0)  # tested with the attack, for the fighter it was aimed at
    if "Grenade" in shot.traits and shot.profile["ammo"] is not None:
        return certain(1)
    return map_dist(firepower(shot.firepower_dice), lambda fp: fp[1])


def ammo_odds(shot: Shot) -> dict:
    symbols = ammo_symbols(shot)
    failures = chain(symbols, lambda s: ammo_failures(s, shot.profile["ammo"]))
    answer = {
        **prob("p_ammo_check", chance(symbols, lambda s: s > 0)),
        **prob("p_out_of_ammo", chance(failures, lambda f: f > 0)),
        **prob("p_jammed", chance(failures, lambda f: f > 1) if shot.rapid_fire else Fraction(0)),
        "after_out_of_ammo": after_out_of_ammo(shot.traits),
    }
    if "Unstable" in shot.traits:
        overload = chance(symbols, lambda s: s > 0) * Fraction(UNSTABLE_OVERLOAD, 6)
        answer.update(prob("p_overload_out_of_action", overload))
    return answer


NOT_RELOADED = frozenset({"Grenade", "Scarce", "Limited"})  # Out of Ammo is out for the rest of the battle


def after_out_of_ammo(traits: set) -> str:
    if "Grenade" in traits:
        return "out of that grenade for the battle"
    if traits & NOT_RELOADED:
        return "cannot be reloaded this battle"
    if "Plentiful" in traits:
        return "reloads without an Ammo test"
    return "a Reload action and a passed Ammo test"


def scatter_odds() -> dict:
    """Where a Blast marker that missed goes: ``lands`` (``scattered``, ``dud`` or ``on_shooter``) and, when it
    scatters, how many inches (a Hit with a 1 is no move: it calls for the misfire D6)."""
    moves: Dist = {}
    for face, p in SCATTER.distribution().items():
        for inches in D6.faces:
            if not (face == HIT and inches == 1):
                moves[inches] = moves.get(inches, 0) + p / 6
    p_misfire_check = SCATTER.distribution()[HIT] / 6
    scattered = sum(moves.values())
    lands = {"scattered": scattered, "dud": p_misfire_check * Fraction(5, 6), "on_shooter": p_misfire_check / 6}
    return {**dist("lands", lands), **dist("inches", {n: p / scattered for n, p in moves.items()})}


def area_odds(shot: Shot, p_hit: Fraction) -> dict | None:
    """What a Blast marker or Flame template does beyond the target; ``p_hit``: the hit roll's chance (the marker
    stays where it was aimed)."""
    if shot.template:
        return {
            "kind": "template",
            **prob("p_on_target", Fraction(1)),
            "extra_targets": shot.extra_targets,
            **dist("extra_targets_hit", {shot.extra_targets: Fraction(1)}),
        }
    if "Blast" not in shot.traits:
        return None
    size = next(t.split("(")[1].rstrip(")") for t in shot.profile["traits"] if t.startswith("Blast"))
    if shot.under_marker:
        return {"kind": "blast", "marker": size, "under_marker": True, **prob("p_on_target", Fraction(1))}
    return {
        "kind": "blast",
        "marker": size,
        **prob("p_on_target", p_hit),
        **prob("p_scatters", 1 - p_hit),
        "extra_targets": shot.extra_targets,
        **dist("extra_targets_hit", {0: 1 - p_hit, shot.extra_targets: p_hit} if shot.extra_targets else {0: 1}),
        "scatter": "a Scatter dice and a D6 (inches); a Hit symbol with a 1 is a dud on 2-6 of a further D6, "
        "centred on the shooter on a 1; ask about a fighter it lands on with target.under_marker",
        "scatter_odds": scatter_odds(),
    }


def effect_odds(shot: Shot) -> dict | None:
    """Flash and Web: the chance the target ends Blind or Webbed; Smoke: the cloud; Graviton Pulse: the marker."""
    if shot.effect == "Smoke":
        return {
            "trait": "Smoke",
            "hits_fighters": False,
            "cloud_radius": SMOKE_RADIUS,
            **prob("p_clears_each_end_phase", Fraction(SMOKE_CLEARS, 6)),
        }
    if "Graviton Pulse" in shot.traits:
        return {
            "trait": "Graviton Pulse",
            "save_allowed": False,
            "resists_on": f"a D6 of {shot.attack.target_strength} or under (a 6 always fails)",
            "marker_stays": 'for the round: moving through it costs 2" for every 1"; removed in the End phase',
        }
    if shot.effect not in EFFECT_CONDITION:
        return None
    takes = Fraction(1) - d6_test(shot.initiative, shot.flash_test) if shot.effect == "Flash" else _web_takes(shot)
    p_effect = Fraction(0)
    for hits, p in hits_distribution(shot).items():
        if hits:
            p_effect += p * (1 - (1 - takes) ** (hits if shot.effect == "Web" else 1))
    return {"trait": shot.effect, "condition": EFFECT_CONDITION[shot.effect], **prob("p_condition", p_effect)}


def _web_takes(shot: Shot) -> Fraction:
    """Web: the chance one hit's wound roll succeeds (the fighter is Webbed)."""
    needed = wound_target(shot.attack.strength, shot.fighter.current_toughness)
    return Fraction(7 - needed, 6)


def odds(query: Query) -> dict:
    shot = Shot(query)
    found = results(shot)
    attack = shot.attack
    if not shot.in_range:
        to_hit = {"needed": None, "then": None, "modifier": attack.hit_modifier}
    elif attack.skill is None:
        to_hit = {"needed": None, "then": None, "modifier": 0}
    else:
        to_hit = hit_needed(attack.skill, attack.hit_modifier)
    p_hit = chance(found, lambda r: r[0] != MISS)
    answer = {
        "weapon": shot.profile["weapon"],
        "profile": shot.profile.get("name", ""),
        "range": shot.range,
        "to_hit": {**to_hit, "template": shot.template, "automatic": attack.skill is None},
        "firepower": {"dice": shot.firepower_dice, "rapid_fire": shot.rapid_fire},
        **prob("p_hit", p_hit),
        **_fighter_odds(shot, found, 0),
        **ammo_odds(shot),
        "save": {"needed": _save_needed(attack), "modifier": attack.save_modifier},
        "traits_not_modelled": trading_post.unmodelled(shot.profile, MODELLED),
        "assumptions": _assumptions(shot),
    }
    if shot.split_to:
        answer["split"] = [_fighter_odds(shot, results(shot, i), i) for i in range(1, len(shot.split_to) + 1)]
    p_marker = p_hit
    if shot.effect == "Smoke" and shot.in_range:
        p_marker = 1 - attack_faces(attack).get(MISS, 0)  # the hit roll places the cloud; nobody is hit
    area = area_odds(shot, p_marker)
    if area:
        answer["area"] = area
    effect = effect_odds(shot)
    if effect:
        answer["effect"] = effect
    return answer


def _fighter_odds(shot: Shot, found: Dist, index: int) -> dict:
    """The wound, outcome, hits and Injury dice of the target (``index`` 0) or of a ``split_to`` fighter."""
    _, fighter = _aimed(shot, index)
    outcome = dict.fromkeys(OUTCOMES, Fraction(0))
    for (step, _, after), p in found.items():
        outcome[step if step != "unsaved" else classify(fighter, after)] += p
    return {
        **prob("p_wound", chance(found, lambda r: r[0] in ("saved", "unsaved"))),
        **prob("p_unsaved", chance(found, lambda r: r[0] == "unsaved")),
        **dist("hits", hits_distribution(shot, index)),
        **dist("outcome", outcome),
        **dist("injury_dice", map_dist(found, lambda r: r[1])),
    }


def _save_needed(attack: Attack):
    return save_target(attack.save, attack.ap, attack.save_modifier)


def _assumptions(shot: Shot) -> str:
    """What the answer assumed; the Firepower dice's faces and hits only for a Rapid Fire weapon, the one kind
    whose bullet holes count (Pistol, Sidearm and Melee change nothing in a shot: close combat traits)."""
    notes = []
    if shot.rapid_fire:
        notes.append(FIREPOWER_ASSUMPTION)
        if shot.split_to:
            shares = ", ".join(str(most) for _, _, most in shot.split_to)
            notes.append(
                f"{shot.firepower_dice} Firepower dice, the first hit on the target, then up to {shares} on the "
                'fighters within 3" in turn, any more on the target'
            )
        else:
            notes.append(
                f'{shot.firepower_dice} Firepower dice, every hit on the target (none moved to fighters within 3")'
            )
    if "Blast" in shot.traits and not shot.under_marker:
        notes.append("a scattered Blast marker counts as a miss for the target")
    return "; ".join(notes)


# --- one roll --------------------------------------------------------------------------------------


def roll(query: Query, dice: DiceSource) -> dict:
    """One shot on a dice source. Dice are taken in this order: the hit roll; for Rapid Fire the Firepower
    dice and their Ammo tests next (their bullet holes count the hits); then the wound, save, Damage and Injury
    dice of each hit on the target, then of the hits on each ``split_to`` fighter in turn; the Flash Initiative
    test or the Web wound roll; for any other weapon its Firepower dice and Ammo test come next, as entered before
    Rapid Fire was modelled (the order of independent dice does not change the result); last, with ``scatter``,
    the Scatter dice and D6 of a Blast marker that missed (and the misfire D6 on a Hit and a 1)."""
    shot = Shot(query)
    attack = shot.attack
    hit_face = MISS
    if shot.in_range:
        hit_face = 0 if attack.skill is None else roll_hit(dice, attack.skill, attack.hit_modifier)
    ammo = roll_firepower(shot, dice) if shot.rapid_fire and not shot.also_under else None
    scored = 0
    if hit_face != MISS and shot.effect != "Smoke":
        scored = shot.hits_per_hit(ammo["bullet_holes"] if ammo else 1)
    shares = shot.allocation(scored)
    answer = {
        "weapon": shot.profile["weapon"],
        "range": shot.range,
        **_roll_fighter(shot, dice, 0, hit_face, shares[0]),
    }
    split = [_roll_fighter(shot, dice, i, hit_face, shares[i]) for i in range(1, len(shares))]
    effect = _roll_effect(shot, dice, shares[0])
    answer.update(
        **(ammo or roll_firepower(shot, dice)), traits_not_modelled=trading_post.unmodelled(shot.profile, MODELLED)
    )
    if split:
        answer.update(hits_scored=scored, split=split)
    if effect:
        answer["effect"] = effect
    if "Blast" in shot.traits and not shot.under_marker and hit_face == MISS and shot.in_range:
        answer["blast_marker"] = "scatters: roll the Scatter dice and a D6 at the table"
        if shot.scatter:
            answer["scatter"] = roll_scatter(dice)
    return answer


def _roll_fighter(shot: Shot, dice: DiceSource, index: int, hit_face, hits: int) -> dict:
    """The ``hits`` hits on the target (``index`` 0) or a ``split_to`` fighter, resolved in turn."""
    attack, fighter = _aimed(shot, index)
    wound_rolls_made = hits
    if hits and "Scattershot" in shot.traits:
        wound_rolls_made = sum(dice.d6(f"Scattershot: wound rolls for hit {n + 1}") for n in range(hits))
    step, injuries, after = MISS, 0, fighter
    for _ in range(wound_rolls_made):
        result = roll_hit_resolution(attack, after, dice, hit_face)
        step = later_step(step, result[0])
        injuries, after = injuries + result[1], result[2]
    return {
        "result": step,
        "outcome": step if step != "unsaved" else classify(fighter, after),
        "hits": hits,
        "pins": hits > 0 and "Gas" not in shot.traits,  # a Gas hit leaves the fighter Standing
        "injury_dice": injuries,
        "target_after": fighter_json(after),
    }


def _roll_effect(shot: Shot, dice: DiceSource, hits: int) -> dict | None:
    """Flash: the hit fighter's Initiative test, Blind on a failure; Web: a wound roll for each hit, Webbed on a
    success; Smoke: where the cloud is."""
    if shot.effect == "Smoke":
        return {
            "trait": "Smoke",
            "cloud_radius": SMOKE_RADIUS,
            "clears": f"a D6 of {SMOKE_CLEARS} or less in each End phase",
            "hits_fighters": False,
        }
    if shot.effect not in EFFECT_CONDITION or not hits:
        return None
    if shot.effect == "Flash":
        bonus = f", +{shot.flash_test} for photo-goggles" if shot.flash_test else ""
        face = dice.d6(f"Flash: Initiative test (needs {shot.initiative}+{bonus})")
        taken = face + shot.flash_test < shot.initiative
    else:
        strength, toughness = shot.attack.strength, shot.fighter.current_toughness
        needed = wound_target(strength, toughness)
        faces = [dice.d6(f"Web: wound roll (S{strength} against T{toughness} needs {needed}+)") for _ in range(hits)]
        taken = any(wound_succeeds(f, strength, toughness) for f in faces)
    return {"trait": shot.effect, "condition": EFFECT_CONDITION[shot.effect], "taken": taken}


def roll_scatter(dice: DiceSource) -> dict:
    """A Blast marker that missed: the Scatter dice and a D6; a Hit and a 1 call for the misfire D6."""
    direction = dice.roll(SCATTER, "Scatter dice: where the missed Blast marker goes (hit or arrow)")
    inches = dice.d6("scatter distance in inches")
    out = {"scatter_dice": direction, "d6": inches}
    if direction == HIT and inches == 1:
        misfire = dice.d6("Blast misfire: 2-6 a dud, 1 centres the marker on the shooter")
        return {**out, "misfire_d6": misfire, "lands": "on_shooter" if misfire == MISFIRE else "dud"}
    arrow = "the small arrow on the Hit symbol" if direction == HIT else "the arrow"
    return {**out, "lands": "scattered", "inches": inches, "direction": arrow}


def roll_firepower(shot: Shot, dice: DiceSource) -> dict:
    """The Firepower dice, an Ammo test for each Ammo symbol rolled, and the Unstable overload roll."""
    count = shot.firepower_dice
    faces = [dice.roll(FIREPOWER, f"Firepower dice {n + 1} of {count} (1a is the Ammo symbol)") for n in range(count)]
    symbols = max(ammo_symbols(shot)) if "Grenade" in shot.traits else sum(f == AMMO_FACE for f in faces)
    ammo = shot.profile["ammo"]
    tests = [dice.d6(f"Ammo test (needs {ammo})") >= int(ammo[:-1]) for _ in range(symbols if ammo else 0)]
    failed = tests.count(False)
    answer = {
        "firepower_dice": faces,
        "bullet_holes": sum(bullet_holes(f) for f in faces),
        "ammo_test": None if not tests else ("out_of_ammo" if failed else "passed"),
        "ammo_tests": ["passed" if t else "failed" for t in tests],
        "jammed": bool(shot.rapid_fire) and failed > 1,
    }
    if symbols and "Unstable" in shot.traits:
        answer["overload"] = dice.d6("Unstable: the weapon overloads on 1-3") <= UNSTABLE_OVERLOAD
    return answer

"""Values the battle templates show, prepared in Python: odds as rows, a fighter's state as badges, his own
actions and the buttons that set a state by hand, fighters in play order, and the dice the table rolls (their
order, the next die and its faces as buttons)."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import urlencode

from django.urls import reverse

from battles.models import FRESH_CONDITION, BattleFighter, Condition
from battles.rules import edition_rules
from rulebook.n18 import armour as n18_armour

NAMES = {
    "p_hit": "Hits",
    "p_reaches": "The charge reaches",
    "p_wound": "Wounds",
    "p_unsaved": "Not saved",
    "p_pinned": "Pinned",
    "p_pass": "Passes",
    "p_bottled": "Bottles out",
    "p_attacker_wins": "Attacker wins",
    "p_defender_wins": "Defender wins",
    "p_standoff": "Stand-off",
    "p_ammo_roll": "Ammo roll needed",
    "p_weapon_fails": "Weapon fails",
    "p_explodes": "Weapon explodes",
    "p_out_of_ammo": "Out of ammo",
    "p_any_hit": "At least one hit",
    "p_recovers": "Recovers",
    "p_falls": "Falls",
    "p_reacts": "Opponent strikes back",
    "p_disarmed": "Opponent strikes back unarmed (disarmed)",
    "p_stray_hit": "A stray shot hits the friend in the way",
    "p_hit_other_fighter": "Hits another fighter in the fight",
    "clears": "Clears the gap",
}


def words(key: str) -> str:
    return NAMES.get(key) or key.removeprefix("p_").replace("_", " ").replace("-", " ").capitalize()


def odds_rows(odds: dict, others: list[str] = ()) -> dict:
    """``{"chances": [(label, percent, exact)], "outcome": [...], "reaction": [...]}`` from a rulebook odds answer;
    ``reaction``: the attacker's outcome from a 2018+ target's Reaction attacks; ``others``: the names of the fighters
    a 2018+ Rapid Fire shot splits its spare hits to (the answer's ``split``, in order)."""
    reaction = odds.get("reaction") or {}
    return {
        "chances": _chances(odds) + _chances(reaction) + _effect_chances(odds) + _split_chances(odds, others),
        "outcome": _distribution(odds, "outcome") or _distribution(odds, "result"),
        "reaction": _distribution(reaction, "attacker_outcome"),
        "notes": _notes(odds),
    }


def _effect_chances(odds: dict) -> list[tuple]:
    """A 2018+ Flash or Web shot: the chance the target ends Blind or Webbed."""
    effect = odds.get("effect") or {}
    if "p_condition" not in effect:
        return []
    return [(effect["condition"], round(100 * effect["p_condition"], 1), effect["p_condition_exact"])]


def _split_chances(odds: dict, others: list[str]) -> list[tuple]:
    """A 2018+ Rapid Fire shot's spare hits: for each fighter within 3" they go to, the chance of a hit and of one not
    saved."""
    rows = []
    for name, share in zip(others, odds.get("split") or [], strict=False):
        p_hit = 1 - share["hits"].get("0", 0)
        exact_hit = 1 - Fraction(share["hits_exact"].get("0", "0"))
        rows.append((f"{name} takes a spare hit", round(100 * p_hit, 1), str(exact_hit)))
        rows.append((f"{name}: not saved", round(100 * share["p_unsaved"], 1), share["p_unsaved_exact"]))
    return rows


def _chances(odds: dict) -> list[tuple]:
    return [
        (words(key), round(100 * value, 1), odds.get(f"{key}_exact", ""))
        for key, value in odds.items()
        if key.startswith("p_") and not key.endswith("_exact") and isinstance(value, (int, float))
    ]


# Outcomes in the order the game reaches them (a miss before a wound, a Flesh Wound before Out of Action); the
# rulebook's answers list them alphabetically.
GAME_ORDER = (
    "miss",
    "no_hit",
    "no_wound",
    "saved",
    "unharmed",
    "no_effect",
    "stays_put",
    "clears",
    "no_fall",
    "pinned",
    "wound_lost",
    "flesh_wound",
    "down",
    "seriously_injured",
    "out_of_action",
)


def in_game_order(keys) -> list:
    known = {key: index for index, key in enumerate(GAME_ORDER)}
    return sorted(keys, key=lambda key: known.get(key, len(GAME_ORDER)))


def _distribution(odds: dict, name: str) -> list[tuple]:
    exact = odds.get(f"{name}_exact") or {}
    values = odds.get(name) or {}
    return [
        (words(k), round(100 * values[k], 1), exact.get(k, ""))
        for k in in_game_order(values)
        if isinstance(values[k], (int, float))
    ]


def _notes(odds: dict) -> list[str]:
    notes = []
    to_hit = odds.get("to_hit")
    if isinstance(to_hit, dict) and to_hit.get("needed"):
        then = f", then {to_hit['then']}+" if to_hit.get("then") else ""
        notes.append(f"To hit: {to_hit['needed']}+{then}")
    if odds.get("test"):
        notes.append(f"Test: {odds['test']}")
    for key in ("why", "assumptions", "traits_not_modelled"):
        value = odds.get(key)
        if value:
            notes.append(", ".join(value) if isinstance(value, list) else str(value))
    return notes


def badges(fighter: BattleFighter, edition: str) -> list[str]:
    out = [fighter.get_condition_display()]
    if edition == "n18" and not fighter.out_of_action:
        out.append("Prone" if fighter.prone else "Standing")
        out.append("Ready" if fighter.ready else "Activated")
    for name, label in (
        ("broken", "Broken"),
        ("hidden", "Hidden"),
        ("overwatch", "Overwatch"),
        ("engaged", "Engaged"),
        ("ablaze", "Ablaze"),
    ):
        if getattr(fighter, name) and not fighter.out_of_action:
            out.append(label)
    return out


TOGGLE_WORDS = {
    "broken": ("Broken", "Rallied"),
    "hidden": ("Hidden", "Not hidden"),
    "overwatch": ("Overwatch", "Off overwatch"),
    "engaged": ("Engaged", "Not engaged"),
    "prone": ("Prone", "Stand up"),
    "ready": ("Ready", "Activated"),
}


def toggles(fighter: BattleFighter, adjustable: tuple, edition: str) -> list[tuple[str, str, str]]:
    """(field, value to post, button words) for each state a player may set by hand."""
    if fighter.out_of_action:
        return []
    out = []
    for field in adjustable:
        if field == "condition":
            fresh = FRESH_CONDITION[edition]
            if fighter.condition == Condition.PINNED:
                out.append((field, fresh, "No longer pinned"))
            elif fighter.condition == fresh:
                out.append((field, Condition.PINNED, "Pinned"))
            continue
        on, off = TOGGLE_WORDS[field]
        out.append((field, "0", off) if getattr(fighter, field) else (field, "1", on))
    return out


TARGET_NUMBERS = ("WS", "BS", "I", "Ld", "Cl", "Wil", "Int")  # 2018+ characteristics rolled against, shown as 4+


def stat_words(stats: dict, edition: str) -> list[tuple[str, str]]:
    plus = edition == "n18"
    return [(code, f"{value}+" if plus and code in TARGET_NUMBERS else str(value)) for code, value in stats.items()]


def weapon_state(fighter: BattleFighter, key: str, edition: str) -> str:
    """Words for a weapon that may not be used: failed (classic), Out of Ammo or out for the battle (2018+)."""
    if key in fighter.jammed_weapons:
        return "out for the battle"
    if key in fighter.failed_weapons:
        return "Out of Ammo" if edition == "n18" else "failed"
    return ""


def armour_words(fighter: BattleFighter) -> str:
    """What the fighter wears that the rules read, with the save it gives against a plain shot as the engine works
    it out (``Flak armour, Armoured undersuit (5+)``), or the card's suit and save."""
    items = tuple(n18_armour.find(slug, "armour") for slug in fighter.profile.get("worn", []))
    if items:
        save, modifier = n18_armour.save_and_modifier(items, n18_armour.Situation())
        shown = f" ({save - modifier}+)" if save and save - modifier <= 6 else ""
        return ", ".join(item.name for item in items) + shown
    save, name = fighter.profile.get("save"), fighter.profile.get("armour")
    return f"{name} ({save}+)" if name and save else ""


def activated(fighter: BattleFighter, edition: str) -> bool:
    """2018+: a fighter still in play who has acted this round (no Ready marker)."""
    return edition == "n18" and not fighter.ready and not fighter.out_of_action


def play_order(fighter: BattleFighter, edition: str, acting_pk: int | None = None) -> tuple:
    """The fighter whose activation has begun first, then those who may still act, then those activated this
    round, then those Out of Action."""
    return (fighter.out_of_action, activated(fighter, edition), fighter.pk != acting_pk)


def next_to_act(fighters: list[BattleFighter], edition: str, side: str | None, acting_pk: int | None) -> int | None:
    """The fighter who may act next: the one whose activation has begun, else the first of the gang whose
    activation (2018+) or turn (classic) it is who may still act; None when nobody may."""
    able = [
        f
        for f in fighters
        if f.side == side and not f.out_of_action and not activated(f, edition) and f.condition != Condition.DOWN
    ]
    able.sort(key=lambda f: play_order(f, edition, acting_pk))
    return able[0].pk if able else None


def fighter_rows(
    fighters: list[BattleFighter],
    adjustable: tuple,
    edition: str,
    battle_pk: int | None = None,
    enemy_down: bool = False,
    acting_pk: int | None = None,
    next_pk: int | None = None,
    group_leaders: set = frozenset(),
) -> list[dict]:
    """One card per fighter, in play order; ``battle_pk`` given (a player's page), each card has the fighter's
    own actions (``enemy_down``: an enemy lies Seriously Injured, so a Coup de Grace may be made; ``group_leaders``: the
    fighters who may begin a Group Activation now)."""
    return [
        {
            "fighter": f,
            "badges": badges(f, edition),
            "toggles": toggles(f, adjustable, edition),
            "weapons": [(w["name"], weapon_state(f, w["key"], edition)) for w in f.profile.get("weapons", [])],
            "stats": stat_words(f.stats, edition),
            "armour": armour_words(f),
            "not_applied": f.profile.get("not_applied", []),
            "chems": chem_words(f),
            "activated": activated(f, edition),
            "actions": fighter_actions(f, edition, battle_pk, enemy_down) if battle_pk else [],
            "can_move": bool(battle_pk) and edition == "n18" and f.ready and f.condition == Condition.ACTIVE,
            "can_finish": bool(battle_pk) and edition == "n18" and f.ready and not f.out_of_action,
            "can_stand": bool(battle_pk) and edition == "n18" and f.condition == Condition.PINNED,
            "can_group": f.pk in group_leaders,
            "is_next": f.pk == next_pk,
            "is_acting": f.pk == acting_pk and f.ready,
        }
        for f in sorted(fighters, key=lambda f: play_order(f, edition, acting_pk))
    ]


def chem_words(fighter: BattleFighter) -> dict | None:
    """The chems the fighter took, as the card says them: the snapshot's ``chems`` and those worn off by now."""
    chems = fighter.profile.get("chems")
    if not chems:
        return None
    working = fighter.chems_working()
    named = zip(chems.get("slugs", []), chems["taken"], strict=False)
    return {**chems, "worn_off": [name for slug, name in named if slug not in working]}


def _act_url(battle_pk: int, kind: str, **params) -> str:
    return f"{reverse('battles:battle-act', args=[battle_pk, kind])}?{urlencode(params)}"


def fighter_actions(fighter: BattleFighter, edition: str, battle_pk: int, enemy_down: bool) -> list[tuple[str, str]]:
    """(words, link) for each action the fighter's state allows: Shoot and Fight when he can act, and the tests
    his state calls for (recovery when down, rallying when broken, escaping pinning)."""
    if fighter.out_of_action:
        return []
    pk = fighter.pk
    shoots = bool(edition_rules(edition).offered(fighter, "shoots").usable)
    out = []
    down = fighter.condition in (Condition.DOWN, Condition.SERIOUSLY_INJURED)
    if (
        not down
        and fighter.condition != Condition.PINNED
        or (edition == "n18" and fighter.condition == Condition.PINNED)
    ):
        if shoots and not (edition == "classic" and fighter.broken):
            out.append(("Shoot", _act_url(battle_pk, "shoot", fighter=pk)))
        if edition == "n18" and fighter.condition == Condition.ACTIVE and not fighter.engaged:
            out.append(("Charge", _act_url(battle_pk, "fight", fighter=pk, charging=1)))
        if fighter.condition != Condition.PINNED:
            out.append(("Fight", _act_url(battle_pk, "fight", fighter=pk)))
    if edition == "n18" and not down and enemy_down and fighter.condition != Condition.PINNED:
        out.append(("Coup de Grace", _act_url(battle_pk, "coup-de-grace", fighter=pk)))
    if down:
        out.append(("Recovery", _act_url(battle_pk, "test", test="recovery", fighter=pk)))
    if edition == "classic" and fighter.condition == Condition.PINNED:
        out.append(("Escape pinning", _act_url(battle_pk, "test", test="escape_pinning", fighter=pk)))
    if fighter.broken:
        test = "rally" if edition == "n18" else "nerve"
        out.append(
            ("Rally" if edition == "n18" else "Recover nerve", _act_url(battle_pk, "test", test=test, fighter=pk))
        )
    if edition == "n18" and fighter.ablaze:
        out.append(("Blaze", _act_url(battle_pk, "test", test="blaze", fighter=pk)))
    if edition == "n18" and fighter.failed_weapons and set(fighter.failed_weapons) - set(fighter.jammed_weapons):
        out.append(("Reload", _act_url(battle_pk, "test", test="reload", fighter=pk)))
    return out


OUTCOME_WORDS = {
    "ok": "Fine",
    "down": "Down",
    "seriously_injured": "Seriously Injured",
    "out_of_action": "Out of Action",
    "fled": "Fled the battlefield",
}
# Each award in words, once and several times ({n}).
AWARD_WORDS = {
    "out_of_action": ("took an enemy Out of Action", "took {n} enemies Out of Action"),
    "leader_or_champion_out_of_action": ("took out a Leader or Champion", "took out {n} Leaders or Champions"),
    "rallies": ("rallied", "rallied {n} times"),
    "relic_defiled": ("defiled a relic", "defiled {n} relics"),
    "caches_destroyed": ("destroyed a weapon cache", "destroyed {n} weapon caches"),
    "caches_recovered": ("recovered a weapon cache", "recovered {n} weapon caches"),
    "wounding_hits": ("1 wounding hit", "{n} wounding hits"),
}


def award_words(name: str, count: int) -> str:
    one, several = AWARD_WORDS.get(name, (name.replace("_", " "), f"{name.replace('_', ' ')} ({{n}})"))
    return one if count == 1 else several.format(n=count)


def report_rows(report: dict) -> list[dict]:
    """Each fighter's end in words ("Out of Action, by Vex"), with the awards, gang by gang."""
    return [
        {
            "name": f["name"],
            "side": report["sides"][f["side"]]["name"],
            "outcome": OUTCOME_WORDS.get(f["outcome"], f["outcome"]) + (f", by {f['by_name']}" if f["by_name"] else ""),
            "by": f["by_name"],
            "awards": "; ".join(award_words(k, v) for k, v in f["awards"].items()),
        }
        for f in sorted(report.get("fighters", []), key=lambda f: f["side"])
    ]


def fact_lines(facts: dict, names: dict) -> list[str]:
    """The scenario's facts in words; ``names`` maps a side to its gang's name."""
    lines = []
    for casket in facts.get("caskets", []):
        credits = f", {casket['credits']} credits" if casket.get("credits") else ""
        lines.append(f"{names[casket['side']]} opened a loot casket: {casket['result']}{credits}")
    for side, record in facts.get("relics_defiled", {}).items():
        lines.append(f"{names[side]}'s relic was defiled by {record['name']}")
    for name, words in (
        ("caches_found", "found"),
        ("caches_destroyed", "destroyed"),
        ("caches_recovered", "recovered"),
    ):
        for record in facts.get(name, []):
            lines.append(f"{record['name']} ({names[record['side']]}) {words} a weapon cache")
    for side in facts.get("fled", []):
        lines.append(f"{names[side]} bottled out and fled the battlefield")
    if facts.get("ammo_cache_exhausted"):
        lines.append("The ammo cache was exhausted")
    return lines


# --- dice entered from the table ---------------------------------------------------------------------------

SPECIAL_FACES = {
    "Firepower": (("1", "1 hit"), ("2", "2 hits"), ("3", "3 hits"), ("1a", "1 hit + Ammo")),
    "Sustained Fire": (("1", "1"), ("2", "2"), ("3", "3"), ("jam", "Jam")),
    "Scatter": (("hit", "Hit"), ("arrow", "Arrow")),
    "Artillery": (("2", "2"), ("4", "4"), ("6", "6"), ("8", "8"), ("10", "10"), ("misfire", "Misfire")),
}


def _injury_table(edition: str):
    if edition == "n18":
        from rulebook.n18.damage import INJURY_DICE

        return INJURY_DICE
    from rulebook.classic.resolution import INJURY

    return INJURY


def die_faces(edition: str, die, purpose: str) -> list[tuple[str, str]]:
    """(value to enter, button words) for each face of the die the rules want: an Injury dice by its results
    (n18: 1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action), the special dice by their symbols."""
    if die.name in SPECIAL_FACES:
        return list(SPECIAL_FACES[die.name])
    if die.name == "D6" and "injury" in purpose.lower():
        table = _injury_table(edition)
        return [(str(row.low), f"{row.result} ({row.label})") for row in table.rows]
    return [(str(face), str(face)) for face in dict.fromkeys(die.faces)]


def next_die(edition: str, needed) -> dict | None:
    """The next die to roll at the table, for the page: its number, what it is for and its face buttons."""
    if needed is None:
        return None
    return {
        "number": needed.index + 1,
        "die": needed.die.name,
        "purpose": needed.purpose,
        "faces": die_faces(edition, needed.die, needed.purpose),
    }


def entered_dice(dice: list) -> str:
    return " · ".join(str(d) for d in dice)


def dice_order(edition: str, plan, odds: dict) -> list[str]:
    """Which dice to roll, in the order the rules read them, from the odds answer (the next-die prompt then
    names each die exactly as the rules read it)."""
    if plan.rule == "shoot" and edition == "n18":
        return _n18_shoot_order(odds)
    if plan.rule == "fight" and edition == "n18":
        return _n18_fight_order(odds)
    if plan.rule == "fight" and edition == "classic":
        attacker, defender = odds.get("attacker") or {}, odds.get("defender") or {}
        return [
            f"Attack dice: the attacker's {attacker.get('attack_dice', 1)} D6, then the defender's "
            f"{defender.get('attack_dice', 1)} D6",
            "then, if a sword parries, the re-rolled Attack dice",
            "then for each hit of the winner: wound 1 D6, armour save 1 D6, Injury 1 D6 per wound past the last",
        ]
    if plan.rule == "shoot":
        to_hit = odds.get("to_hit") or {}
        steps = [f"Hit: 1 D6 (needs {to_hit['needed']}+)" if to_hit.get("needed") else "Hit: none (a template)"]
        steps.append("then for each hit: wound 1 D6, armour save 1 D6, Injury 1 D6 per wound past the last")
        return steps
    return ["One die at a time, as asked below"]


def _n18_shoot_order(odds: dict) -> list[str]:
    to_hit, firepower = odds.get("to_hit") or {}, odds.get("firepower") or {}
    steps = []
    if to_hit.get("needed"):
        then = f", then {to_hit['then']}+" if to_hit.get("then") else ""
        steps.append(f"Hit: 1 D6 (needs {to_hit['needed']}+{then})")
    else:
        steps.append("Hit: no roll (a template)")
    if firepower.get("rapid_fire"):
        steps.append(f"then {firepower['dice']} Firepower dice (Rapid Fire: their bullet holes are the hits)")
    save = (odds.get("save") or {}).get("needed")
    effect = (odds.get("effect") or {}).get("trait")
    if effect in N18_EFFECT_STEPS:
        steps.append(N18_EFFECT_STEPS[effect])
    else:
        per_hit = "then for each hit: wound 1 D6" + (f", save 1 D6 ({save}+)" if save else "")
        steps.append(per_hit + ", Damage, and an Injury dice for each Damage past the last Wound")
    if odds.get("split"):
        steps.append('then the same for the spare hits on each fighter within 3", in turn')
    if firepower.get("dice") and not firepower.get("rapid_fire"):
        steps.append("then 1 Firepower dice (its Ammo symbol asks for an Ammo test)")
    if (odds.get("area") or {}).get("p_scatters"):
        steps.append("if it misses: the Scatter dice and a D6 (inches); a Hit with a 1 asks one more D6")
    return steps


# What a 2018+ special weapon's hit rolls instead of the wound (``rulebook.n18.shooting``).
N18_EFFECT_STEPS = {
    "Flash": "then the target's Initiative test: 1 D6 (Blind if it fails)",
    "Web": "then for each hit a wound roll: 1 D6 (Webbed if it wounds; no save, no Injury dice)",
    "Smoke": "no hit on anyone: the cloud goes where the marker lands",
    "Graviton Pulse": "then 1 D6 at or under the target's Strength resists (a 6 fails), else Damage with no save "
    "and an Injury dice for each Damage past the last Wound",
}


def _n18_fight_order(odds: dict) -> list[str]:
    weapons = odds.get("weapons") or []
    dice = ", then ".join(f"{w['attack_dice']} D6 with the {w['weapon']} ({w['to_hit']['needed']}+)" for w in weapons)
    steps = [f"Attack dice: {dice}"]
    if odds.get("parries"):
        steps.append(
            "then the parried hit, re-rolled" if odds["parries"] == 1 else "then the 2 parried hits, re-rolled"
        )
    steps.append(
        "then for each hit, best first: wound 1 D6, save 1 D6, an Injury dice for each Damage past the last Wound"
    )
    if odds.get("reaction"):
        steps.append("then the opponent's Reaction attacks, the same way")
    return steps

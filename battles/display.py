"""Values the battle templates show, prepared in Python: odds as rows, a fighter's state as badges and the
buttons that set a state by hand."""

from __future__ import annotations

from battles.models import FRESH_CONDITION, BattleFighter, Condition

NAMES = {
    "p_hit": "Hits",
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
}


def words(key: str) -> str:
    return NAMES.get(key) or key.removeprefix("p_").replace("_", " ").replace("-", " ").capitalize()


def odds_rows(odds: dict) -> dict:
    """``{"chances": [(label, percent, exact)], "outcome": [...], "reaction": [...]}`` from a rulebook odds answer;
    ``reaction``: the attacker's outcome from a 2018+ target's Reaction attacks."""
    reaction = odds.get("reaction") or {}
    return {
        "chances": _chances(odds) + _chances(reaction),
        "outcome": _distribution(odds, "outcome") or _distribution(odds, "result"),
        "reaction": _distribution(reaction, "attacker_outcome"),
        "notes": _notes(odds),
    }


def _chances(odds: dict) -> list[tuple]:
    return [
        (words(key), round(100 * value, 1), odds.get(f"{key}_exact", ""))
        for key, value in odds.items()
        if key.startswith("p_") and not key.endswith("_exact") and isinstance(value, (int, float))
    ]


def _distribution(odds: dict, name: str) -> list[tuple]:
    exact = odds.get(f"{name}_exact") or {}
    return [(words(k), round(100 * v, 1), exact.get(k, "")) for k, v in (odds.get(name) or {}).items()
            if isinstance(v, (int, float))]  # fmt: skip


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
    for name, label in (("broken", "Broken"), ("hidden", "Hidden"), ("overwatch", "Overwatch"), ("engaged", "Engaged")):
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


def fighter_rows(fighters: list[BattleFighter], adjustable: tuple, edition: str) -> list[dict]:
    return [
        {
            "fighter": f,
            "badges": badges(f, edition),
            "toggles": toggles(f, adjustable, edition),
            "weapons": [(w["name"], weapon_state(f, w["key"], edition)) for w in f.profile.get("weapons", [])],
            "stats": stat_words(f.stats, edition),
        }
        for f in fighters
    ]


OUTCOME_WORDS = {
    "ok": "Fine",
    "down": "Down",
    "seriously_injured": "Seriously Injured",
    "out_of_action": "Out of Action",
}
AWARD_WORDS = {
    "out_of_action": "took out",
    "leader_or_champion_out_of_action": "took out a Leader or Champion",
    "rallies": "rallied",
    "relic_defiled": "defiled a relic",
    "caches_destroyed": "destroyed a weapon cache",
    "caches_recovered": "recovered a weapon cache",
}


def report_rows(report: dict) -> list[dict]:
    return [
        {
            "name": f["name"],
            "side": report["sides"][f["side"]]["name"],
            "outcome": OUTCOME_WORDS.get(f["outcome"], f["outcome"]),
            "by": f["by_name"],
            "awards": ", ".join(f"{AWARD_WORDS.get(k, k)} ×{v}" for k, v in f["awards"].items()),
        }
        for f in report.get("fighters", [])
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

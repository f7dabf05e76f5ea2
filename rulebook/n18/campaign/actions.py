"""The campaign guide's rules on the command line: ``odds`` and ``roll`` for each.

Queries (JSON on standard input); a fighter is ``{"id": "a", "characteristics": {"BS": 4, ...},
"skills": [...], "injuries": [...], "xp": 0, "status": "active"}``.

- ``scenario``: ``{"rescue_mission": false}``.
- ``crew``: ``{"scenario": "border-dispute", "role": "defender", "fighters": [{"id": "a"}, ...],
  "chosen": ["a"]}``, or ``"crew": {"method": "random", "random": "D3+3"}`` instead of scenario and role.
- ``lasting-injury``: ``{"fighter": {...}, "roll": 54, "caused_by_attack_action": false}`` (``roll``
  optional: without it the table is rolled; Multiple Injuries rolls its further dice either way).
- ``post-battle-injury``: ``{"fighter": {...}}``.
- ``medical-escort``: ``{"fighter": {..., "status": "critical_injury"}, "roll": 3}`` (``roll`` optional).
- ``home-settlement``: ``{"recruit": true}``.
- ``loot-casket``: ``{"smash_and_grab": false, "ignore_booby_trap": false}``, and ``"opener": {"T": 3, "W": 1,
  "save": 5}`` (optional, a shot's target) for the fighter a Booby Trapped casket's blast then hits.
- ``ammo-cache``: ``{"ammo": 4}``: an Ammo test of 4+ while ransacking the cache.
- ``home-turf-bottle``: ``{}``: the Bottle check die of a gang with Home Turf.
- ``cache-search``: ``{}``: one searching fighter's End phase D6 for Search & Destroy's weapon cache (5+ finds it).
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import D6, DiceSource, mix
from rulebook.editions import Action
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.battlefield import (
    CACHE_SEARCH_NEEDS,
    LOOT_CASKET,
    LOOT_CASKET_SMASH_AND_GRAB,
    home_turf_bottle_die,
    open_loot_casket,
    p_cache_found,
    p_ransacked_ammo_test,
    ransack_ammo_cache,
    roll_cache_search,
    roll_home_turf_bottle_die,
)
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY_RULES, STATUSES
from rulebook.n18.campaign.post_battle import (
    HOME_SETTLEMENT,
    HOME_SETTLEMENT_RECRUIT,
    MEDICAL_ESCORT,
    POST_BATTLE_INJURY,
    apply_medical_escort,
    post_battle_injury_test,
    roll_home_settlement,
)
from rulebook.n18.campaign.scenarios import (
    SCENARIO_TABLE,
    SCENARIOS,
    Crew,
    roll_scenario,
    scenario_distribution,
    select_crew,
)
from rulebook.output import dist, prob
from rulebook.query import Query
from rulebook.roster import FighterSnapshot, amount_distribution
from rulebook.tables import Table


def _fighter(q: Query, name: str = "fighter") -> FighterSnapshot:
    return FighterSnapshot.from_query(q.sub(name), STATUSES)


# --- scenario and crews ---------------------------------------------------------------------------


def _scenario_odds(q: Query) -> dict:
    by_slug = scenario_distribution()
    return {**dist("scenario", {SCENARIOS[s].name: p for s, p in by_slug.items()}), "table": SCENARIO_TABLE.as_json()}


def _scenario_roll(q: Query, dice: DiceSource) -> dict:
    return roll_scenario(dice, rescue_mission=q.bool("rescue_mission"))


def _crew_rule(q: Query) -> Crew:
    if q.has("crew"):
        c = q.sub("crew")
        method = c.choice("method", ("custom", "hybrid", "random"))
        return Crew(method, c.str("chosen", default=None), c.str("random", default=None))
    scenario = SCENARIOS[q.choice("scenario", [s for s in SCENARIOS if SCENARIOS[s].crews])]
    return scenario.crew(q.choice("role", ("attacker", "defender")) if scenario.has_attacker else "both")


def _crew_odds(q: Query) -> dict:
    crew = _crew_rule(q)
    chosen = amount_distribution(crew.chosen) if crew.chosen else {0: Fraction(1)}
    randomly = amount_distribution(crew.random) if crew.random else {0: Fraction(1)}
    return {"crew": crew.as_json(), **dist("may_choose", chosen), **dist("random_count", randomly)}


def _crew_roll(q: Query, dice: DiceSource) -> dict:
    fighters = [FighterSnapshot.from_query(f, STATUSES) for f in q.items("fighters")]
    chosen = q.raw("chosen", [])
    if not isinstance(chosen, list):
        chosen = [chosen]
    return select_crew(_crew_rule(q), fighters, dice, chosen=[str(c) for c in chosen])


# --- injuries and the Doc ----------------------------------------------------------------------------


def _lasting_injury_odds(q: Query) -> dict:
    return LASTING_INJURY_RULES.table.odds()


def _lasting_injury_roll(q: Query, dice: DiceSource) -> dict:
    fighter, by_attack = _fighter(q), q.bool("caused_by_attack_action")
    return LASTING_INJURY_RULES.apply_or_roll(
        fighter, q.raw("roll", None), dice, caused_by_attack_action=by_attack
    ).as_json()


def _post_battle_injury_odds(q: Query) -> dict:
    survive = POST_BATTLE_INJURY.distribution()["Survives"]
    lasting = mix([(1 - survive, LASTING_INJURY_RULES.table.distribution()), (survive, {"Survives": Fraction(1)})])
    return {**prob("p_survives", survive), **prob("p_lasting_injury", 1 - survive), **dist("result", lasting)}


def _post_battle_injury_roll(q: Query, dice: DiceSource) -> dict:
    test, outcome = post_battle_injury_test(
        _fighter(q), dice, caused_by_attack_action=q.bool("caused_by_attack_action")
    )
    return {"test": test, **outcome.as_json()}


def _medical_escort_odds(q: Query) -> dict:
    return MEDICAL_ESCORT.odds()


def _medical_escort_roll(q: Query, dice: DiceSource) -> dict:
    roll = q.raw("roll") if q.has("roll") else dice.d6("Medical Escort")
    return {"roll": MEDICAL_ESCORT.check_roll(roll), **apply_medical_escort(_fighter(q), roll, dice).as_json()}


# --- income, loot and the cache ------------------------------------------------------------------------


def _home_settlement_odds(q: Query) -> dict:
    return {
        **dist("income", amount_distribution(HOME_SETTLEMENT["income"])),
        **dist("recruit", HOME_SETTLEMENT_RECRUIT.distribution()),
        "reputation": HOME_SETTLEMENT["reputation"],
    }


def _home_settlement_roll(q: Query, dice: DiceSource) -> dict:
    return roll_home_settlement(dice, recruit=q.bool("recruit", default=True))


def _loot_casket_table(q: Query) -> Table:
    return LOOT_CASKET_SMASH_AND_GRAB if q.bool("smash_and_grab") else LOOT_CASKET


def _loot_casket_odds(q: Query) -> dict:
    q.raw("opener", None)  # a Booby Trapped blast's target only matters to the roll
    table = _loot_casket_table(q)
    return table.odds()


def _loot_casket_roll(q: Query, dice: DiceSource) -> dict:
    opener = q.raw("opener", None)
    if opener is not None and not isinstance(opener, dict):
        raise RulesInputError(q.field("opener"), "must be an object: the opening fighter as a shot's target")
    return open_loot_casket(
        dice, smash_and_grab=q.bool("smash_and_grab"), ignore_booby_trap=q.bool("ignore_booby_trap"), opener=opener
    )


def _ammo_cache_odds(q: Query) -> dict:
    ammo = q.int("ammo", low=2, high=7)
    return {**prob("p_pass", p_ransacked_ammo_test(ammo)), **prob("p_cache_exhausted", Fraction(1, 6))}


def _ammo_cache_roll(q: Query, dice: DiceSource) -> dict:
    ammo = q.int("ammo", low=2, high=7)
    return ransack_ammo_cache(dice.roll(D6, f"Ammo test {ammo}+ ransacking the ammo cache (+2)"), ammo).as_json()


def _cache_search_odds(q: Query) -> dict:
    return {"needed": CACHE_SEARCH_NEEDS, **prob("p_found", p_cache_found())}


def _cache_search_roll(q: Query, dice: DiceSource) -> dict:
    return roll_cache_search(dice)


def _home_turf_odds(q: Query) -> dict:
    return dist("bottle_die", home_turf_bottle_die())


def _home_turf_roll(q: Query, dice: DiceSource) -> dict:
    return {"bottle_die": roll_home_turf_bottle_die(dice)}


ACTIONS = (
    Action("scenario", "campaign guide scenario roll (2D6) or Rescue Mission", _scenario_odds, _scenario_roll),
    Action("crew", "pick a starting crew (Custom, Hybrid, Random) from available fighters", _crew_odds, _crew_roll),
    Action("lasting-injury", "Lasting Injury (D66) applied to a fighter", _lasting_injury_odds, _lasting_injury_roll),
    Action(
        "post-battle-injury",
        "Prone or Seriously Injured at the end: D6 3+ survives, else Lasting Injury",
        _post_battle_injury_odds,
        _post_battle_injury_roll,
    ),
    Action("medical-escort", "the Doc for a Critical Injury (D6)", _medical_escort_odds, _medical_escort_roll),
    Action("home-settlement", "Home Settlement income and recruit roll", _home_settlement_odds, _home_settlement_roll),
    Action("loot-casket", "open a loot casket (or a Smash & Grab casket)", _loot_casket_odds, _loot_casket_roll),
    Action("ammo-cache", "an Ammo test while ransacking an ammo cache", _ammo_cache_odds, _ammo_cache_roll),
    Action(
        "cache-search",
        "Search & Destroy: a searching fighter finds the weapon cache (D6 5+)",
        _cache_search_odds,
        _cache_search_roll,
    ),
    Action("home-turf-bottle", "the Bottle check die with Home Turf (lower of 2D6)", _home_turf_odds, _home_turf_roll),
)

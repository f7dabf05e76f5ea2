"""Rows in, rulebook out: the campaign's bridge to ``rulebook`` for each edition.

- 2018+: the campaign guide's 2D6 scenario table, Rescue Mission, crews and crew selection
  (``rulebook.n18.campaign.scenarios``), the Home Settlement (``rulebook.n18.campaign.post_battle``),
  the roll-off for attacker (``rulebook.n18.matchmaking``).
- classic: the 1995 Scenario table and its scenarios (``rulebook.classic.campaign.scenarios``); the
  classic rules have no crew selection (the whole gang fights) and no Home Settlement.

No rule is decided here: this module only converts fighters to snapshots and picks the edition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from content.models import Edition, Territory
from gangs.models import Fighter, FighterStatus
from rulebook.classic.campaign import founding
from rulebook.classic.campaign import scenarios as classic_scenarios
from rulebook.dice import DiceSource
from rulebook.n18.campaign import scenarios as n18_scenarios
from rulebook.n18.campaign.lasting_injury import CAPTURED, CONVALESCENCE, DEAD, RECOVERY
from rulebook.n18.campaign.post_battle import HOME_SETTLEMENT
from rulebook.n18.matchmaking import roll_off
from rulebook.roster import ACTIVE, FighterSnapshot

HOME_SETTLEMENT_REPUTATION = HOME_SETTLEMENT["reputation"]
HOME_SETTLEMENT_SOURCE = HOME_SETTLEMENT["sources"][0]
CLASSIC_TERRITORY_SOURCE = founding.SOURCE
# Roster statuses as the rulebook names them.
STATUS = {
    FighterStatus.ACTIVE: ACTIVE,
    FighterStatus.RECOVERY: RECOVERY,
    FighterStatus.CONVALESCENCE: CONVALESCENCE,
    FighterStatus.CAPTURED: CAPTURED,
    FighterStatus.DEAD: DEAD,
    FighterStatus.RETIRED: DEAD,
}


def home_settlement_territory(edition: str) -> Territory | None:
    """The content row for the 2018+ Home Settlement. The guide describes it (D6x10 income, +1
    Reputation, the recruit roll); if the content library has no row yet, this adds one that the
    content loader treats as a house rule and leaves alone."""
    if edition != Edition.N18:
        return None
    found = Territory.objects.filter(edition=edition, is_home_settlement=True).order_by("-is_official", "pk").first()
    if found is not None:
        return found
    return Territory.objects.create(
        edition=edition,
        slug="home-settlement",
        name="Home Settlement",
        income=HOME_SETTLEMENT["income"],
        effects=f"+{HOME_SETTLEMENT_REPUTATION} Reputation while held; {HOME_SETTLEMENT['recruit']}. Cannot be lost.",
        is_home_settlement=True,
        sources=list(HOME_SETTLEMENT["sources"]),
    )


def classic_starting_territories(dice: DiceSource) -> list[dict]:
    """A new classic gang's five territories (``rulebook.classic.campaign.founding``)."""
    return founding.roll_starting_territories(dice)


@dataclass(frozen=True)
class ScenarioRoll:
    slug: str
    name: str
    roll: int | None
    has_roles: bool
    rewards: tuple = ()
    defender_wins_roll_off: bool = False
    extra: dict = field(default_factory=dict)


def roll_scenario(
    edition: str, dice: DiceSource, *, rescue: bool, roll_off_between: tuple[str, str] | None
) -> ScenarioRoll:
    """The scenario of a battle; outside a challenge, the two gangs (attacker first) roll off for
    attacker when it has one. For the classic table a result may leave the choice to a player
    (``extra["chooser"]``): the scenario is then set with :func:`classic_choice`."""
    if edition == Edition.CLASSIC:
        found = classic_scenarios.roll_scenario(dice)
        slug = found.get("scenario") or ""
        name = classic_scenarios.SCENARIOS[slug]["name"] if slug else ""
        extra = {"chooser": found.get("chooser"), "special": found.get("special"), "result": found["result"]}
        return ScenarioRoll(slug, name, found["roll"], has_roles=False, extra=extra)
    result = n18_scenarios.roll_scenario(dice, rescue_mission=rescue)
    scenario = n18_scenarios.SCENARIOS[result["slug"]]
    has_roles, extra, defender_won = result["attacker"] is not None, {}, False
    if has_roles and roll_off_between:
        # Outside a challenge the roll-off winner decides whether to attack or defend (guide, Smash & Grab and
        # The Trap: Attacker & Defender): the battle asks them (``battle_roles_choose``).
        winner, roll_dice = roll_off(*roll_off_between, dice)
        defender_won = winner == roll_off_between[1]
        extra = {"roll_off": {"dice": list(roll_dice), "note": "the roll-off winner chooses to attack or defend"}}
    rewards = tuple(r.as_json() for r in scenario.rewards)
    return ScenarioRoll(scenario.slug, scenario.name, result["roll"], has_roles, rewards, defender_won, extra)


def classic_choices() -> list[tuple[str, str]]:
    return [(slug, s["name"]) for slug, s in classic_scenarios.SCENARIOS.items()]


def classic_choice(slug: str) -> tuple[str, bool]:
    """The name of a classic scenario a player picked, and whether it has an attacker and a defender."""
    if slug not in classic_scenarios.SCENARIOS:
        raise ValidationError(f"Unknown scenario {slug!r}.")
    scenario = classic_scenarios.SCENARIOS[slug]
    return scenario["name"], scenario["attacker_defender"]


def crew_rule(edition: str, scenario_slug: str, side: str, available_count: int) -> n18_scenarios.Crew:
    """The scenario's crew rule for ``side``. Scenarios without one (the Rescue Mission, whose rules
    the guide does not give) let the player choose freely among the available fighters."""
    if edition != Edition.N18:
        raise ValidationError("Classic battles field the whole gang: there is no crew selection.")
    scenario = n18_scenarios.SCENARIOS.get(scenario_slug)
    if scenario is None:
        raise ValidationError("Roll the scenario first.")
    if not scenario.crews:
        return n18_scenarios.Crew("custom", str(max(available_count, 1)))
    return scenario.crew(side if scenario.has_attacker else "both")


def size_needs_dice_before_choosing(crew: n18_scenarios.Crew) -> bool:
    """Whether the player must roll before choosing (Border Dispute's D3 chosen fighters)."""
    return bool(crew.chosen) and "D" in crew.chosen


def crew_size(crew: n18_scenarios.Crew, dice: DiceSource) -> tuple[int, int]:
    return n18_scenarios.roll_crew_size(crew, dice)


def snapshot(fighter: Fighter) -> FighterSnapshot:
    """A roster fighter as the rulebook sees it for crew selection (status and id are what matter)."""
    return FighterSnapshot(
        characteristics=dict(fighter.base_stats),
        xp=fighter.experience,
        status=STATUS[fighter.status],
        id=str(fighter.pk),
    )


def available(fighters: Sequence[Fighter]) -> set[int]:
    """Ids of the fighters who may be picked (not in Recovery, Convalescence or Captured)."""
    return {int(s.id) for s in n18_scenarios.available([snapshot(f) for f in fighters])}


def select_crew(
    crew: n18_scenarios.Crew, fighters: Sequence[Fighter], dice: DiceSource, *, chosen: Sequence[str], size
) -> dict:
    return n18_scenarios.select_crew(crew, [snapshot(f) for f in fighters], dice, chosen=chosen, size=size)

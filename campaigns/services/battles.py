"""A battle from scenario roll to confirmed report: scenario, crews with their dice, the report the
players or the battle assistant submit, and the confirmation the post-battle sequence starts from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import rules
from campaigns.announcements import EventKind, announce
from campaigns.models import (
    Battle,
    BattleFighterResult,
    BattleOrigin,
    BattleStatus,
    Outcome,
    Side,
)
from campaigns.selectors import (
    captives_of,
    crew_candidates,
    hired_guns_of,
    holdings,
    rating_of,
    roles_pending,
    rosters_at_confirmation,
)
from campaigns.services._common import (
    _rolled_since,
    _rules_error,
    _territory_move,
    campaign_log_record,
    require_impartial_battle,
    standing_snapshot_take,
)
from campaigns.services.hired_guns import hired_guns_leave
from gangs.models import Fighter, FighterStatus, Gang
from gangs.services import fighter_status_set
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.record import BattleRecord, Casket, FighterEnd, Problem, validate_record
from rulebook.n18.campaign.record import other as other_role


def _require_scheduled(battle: Battle) -> None:
    if battle.status != BattleStatus.SCHEDULED:
        raise ValidationError("This battle has been reported already.")


@transaction.atomic
def battle_scenario_roll(
    *, battle: Battle, dice: DiceSource, entered: bool = False, actor=None, reason: str = ""
) -> Battle:
    """Roll (or enter) the scenario with its dice; a battle that was not a challenge rolls off, and the
    winner then chooses to attack or defend (:func:`battle_roles_choose`). Every die final: rolling again
    (an arbitrator's call) needs a ``reason``, and the dice set aside, with any crews picked, stay on the
    battle (``scenario_roll["set_aside"]``)."""
    battle = Battle.objects.select_for_update(of=("self",)).select_related("attacker", "defender").get(pk=battle.pk)
    _require_scheduled(battle)
    reason = (reason or "").strip()
    set_aside = list(battle.scenario_roll.get("set_aside", []))
    again = bool(battle.scenario_roll.get("dice") or battle.scenario)
    if again and battle.is_rescue:
        raise ValidationError("A Rescue Mission's scenario is fixed: there is nothing to roll again.")
    if again:
        if battle.scenario:  # an arbitrator's call (the view's rule), never for his own battle
            require_impartial_battle(battle, actor, "Rolling the scenario again")
        if not reason:
            raise ValidationError("Give the reason to roll the scenario again: the dice set aside stay on the battle.")
        old = battle.scenario_roll
        set_aside.append(
            {
                "scenario": battle.scenario_name or old.get("result", ""),
                "roll": old.get("roll"),
                "dice": [*old.get("dice", [])],
                "crews": {
                    side: crew.get("dice", []) + crew.get("size_dice", []) for side, crew in battle.crews.items()
                },
                "reason": reason[:200],
                "by": getattr(actor, "username", ""),
                "at": timezone.now().isoformat(),
            }
        )
    mark = len(dice.rolls)
    # The challenger attacks; any other battle rolls off (attacker first, so a tie-free roll is readable).
    roll_off = None if battle.origin == BattleOrigin.CHALLENGE else (battle.attacker.name, battle.defender.name)
    try:
        result = rules.roll_scenario(battle.campaign.edition, dice, rescue=battle.is_rescue, roll_off_between=roll_off)
    except RulesInputError as err:
        raise _rules_error(err) from err
    battle.scenario, battle.scenario_name = result.slug, result.name
    battle.has_roles = result.has_roles
    extra = dict(result.extra)
    if "roll_off" in extra:
        winner = battle.defender if result.defender_wins_roll_off else battle.attacker
        extra["roll_off"] = {**extra["roll_off"], "winner": winner.pk, "winner_name": winner.name, "chosen": None}
    battle.scenario_roll = {"roll": result.roll, "dice": _rolled_since(dice, mark), "entered": entered, **extra}
    if set_aside:
        battle.scenario_roll["set_aside"] = set_aside
    battle.rewards = list(result.rewards)
    battle.crews = {}
    battle.save()
    if again:
        last = set_aside[-1]
        campaign_log_record(
            gangs=(battle.attacker, battle.defender),
            event="scenario rolled again",
            battle=battle,
            actor=actor,
            dice=last["dice"],
            reason=last["reason"],
            description=f"Scenario rolled again: {last['scenario'] or 'the last roll'} set aside, "
            f"now {battle.scenario_name}",
        )
    return battle


@transaction.atomic
def battle_roles_choose(*, battle: Battle, chooser: Gang, attack: bool) -> Battle:
    """The roll-off winner chooses to attack or defend (once; a new scenario roll starts over)."""
    battle = Battle.objects.select_for_update(of=("self",)).select_related("attacker", "defender").get(pk=battle.pk)
    _require_scheduled(battle)
    if not roles_pending(battle):
        raise ValidationError("There is no attacker or defender left to choose.")
    roll_off = battle.scenario_roll["roll_off"]
    if chooser.pk != roll_off["winner"]:
        raise ValidationError(f"{roll_off['winner_name']} won the roll-off and chooses.")
    if (chooser.pk == battle.attacker_id) != attack:
        battle.attacker, battle.defender = battle.defender, battle.attacker
    battle.scenario_roll = {
        **battle.scenario_roll,
        "roll_off": {**roll_off, "chosen": "attack" if attack else "defend"},
    }
    battle.save()
    return battle


@transaction.atomic
def battle_scenario_choose(*, battle: Battle, scenario: str, chooser: Gang) -> Battle:
    """Classic: when the Scenario table lets a player choose, the chosen scenario; the gang that
    picks a scenario with an attacker and a defender attacks (1995 rulebook, Pre-battle Sequence)."""
    battle = Battle.objects.select_for_update(of=("self",)).select_related("attacker", "defender").get(pk=battle.pk)
    _require_scheduled(battle)
    if battle.scenario or not battle.scenario_roll.get("chooser"):
        raise ValidationError("The scenario table did not leave this choice to a player.")
    name, has_roles = rules.classic_choice(scenario)
    if chooser.pk not in (battle.attacker_id, battle.defender_id):
        raise ValidationError(f"{chooser.name} does not fight this battle.")
    ratings = {gang.pk: rating_of(gang) for gang in (battle.attacker, battle.defender)}
    other = battle.defender_id if chooser.pk == battle.attacker_id else battle.attacker_id
    wants_higher = battle.scenario_roll["chooser"] == "higher rating"
    if ratings[chooser.pk] != ratings[other] and (ratings[chooser.pk] > ratings[other]) != wants_higher:
        raise ValidationError(f"The table lets the gang with the {battle.scenario_roll['chooser']} choose.")
    if chooser.pk == battle.defender_id:
        battle.attacker, battle.defender = battle.defender, battle.attacker
    battle.scenario, battle.scenario_name, battle.has_roles = scenario, name, has_roles
    battle.scenario_roll = {**battle.scenario_roll, "chosen_by": chooser.pk}
    battle.save()
    return battle


def _crew_rule(battle: Battle, side: str, fighters: list[Fighter]):
    if side not in Side.values:
        raise ValidationError(f"Unknown side {side!r}.")
    if roles_pending(battle):
        raise ValidationError(
            f"{battle.scenario_roll['roll_off']['winner_name']} won the roll-off: they choose to "
            "attack or defend before the crews are picked."
        )
    return rules.crew_rule(battle.campaign.edition, battle.scenario, side, len(rules.available(fighters)))


@transaction.atomic
def battle_crew_size_roll(*, battle: Battle, side: str, dice: DiceSource) -> Battle:
    """Roll how many fighters a side chooses and how many are picked at random (crew dice)."""
    battle = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign", "attacker", "defender")
        .get(pk=battle.pk)
    )
    _require_scheduled(battle)
    crew = _crew_rule(battle, side, crew_candidates(battle.gang_of(side)))
    if battle.crews.get(side, {}).get("size"):
        raise ValidationError("The crew size has been rolled already.")
    mark = len(dice.rolls)
    try:
        size = rules.crew_size(crew, dice)
    except RulesInputError as err:
        raise _rules_error(err) from err
    battle.crews = {**battle.crews, side: {"size": list(size), "size_dice": _rolled_since(dice, mark)}}
    battle.save(update_fields=["crews"])
    return battle


@transaction.atomic
def battle_crew_select(*, battle: Battle, side: str, chosen: Sequence[int], dice: DiceSource) -> Battle:
    """The player's chosen fighters, then the random picks among the other available fighters
    (not in Recovery, Convalescence or Captured), every die stored on the battle."""
    battle = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign", "attacker", "defender")
        .get(pk=battle.pk)
    )
    _require_scheduled(battle)
    fighters = crew_candidates(battle.gang_of(side))
    crew = _crew_rule(battle, side, fighters)
    stored = battle.crews.get(side, {})
    if stored.get("fighters") is not None:
        raise ValidationError("This crew has been picked already; roll the scenario again to start over.")
    try:
        size = tuple(stored["size"]) if stored.get("size") else None
        if size is None and rules.size_needs_dice_before_choosing(crew):
            raise ValidationError("Roll the crew size first.")
        result = rules.select_crew(crew, fighters, dice, chosen=[str(pk) for pk in chosen], size=size)
    except RulesInputError as err:
        raise _rules_error(err) from err
    hired = [str(f.pk) for f in hired_guns_of(battle, battle.gang_of(side))]
    result = {**result, "fighters": [*result["fighters"], *hired], "hired_guns": hired}
    battle.crews = {**battle.crews, side: {**stored, **result}}
    battle.save(update_fields=["crews"])
    return battle


def _fighter_rows(battle: Battle, fighter_results: Iterable[dict]) -> list[BattleFighterResult]:
    """The report's fighter rows, each fighter in one of the two gangs (the rest is :func:`_checked_facts`')."""
    sides = {battle.attacker_id: Side.ATTACKER, battle.defender_id: Side.DEFENDER}
    ids = set()
    rows = []
    entries = list(fighter_results)
    fighters = Fighter.objects.select_related("fighter_type").in_bulk(
        [e["fighter"] for e in entries] + [e["caused_by"] for e in entries if e.get("caused_by")]
    )
    for i, entry in enumerate(entries):
        fighter = fighters.get(entry["fighter"])
        if fighter is None or fighter.gang_id not in sides:
            raise ValidationError(f"Fighter {i + 1} is not in either gang.")
        if fighter.pk in ids:
            raise ValidationError(f"{fighter.name} appears twice in the report.")
        ids.add(fighter.pk)
        outcome = entry.get("outcome", Outcome.OK)
        caused_by = fighters.get(entry["caused_by"]) if entry.get("caused_by") else None
        if caused_by is not None and caused_by.gang_id not in set(sides) - {fighter.gang_id}:
            raise ValidationError(f"{fighter.name} can only be taken down by an enemy fighter.")
        killed, webbed = bool(entry.get("killed")), bool(entry.get("webbed"))
        if webbed and battle.campaign.edition != "n18":
            raise ValidationError(f"{fighter.name}: the Webbed condition is a 2018+ rule.")
        rows.append(
            BattleFighterResult(
                battle=battle,
                fighter=fighter,
                side=sides[fighter.gang_id],
                outcome=outcome,
                caused_by=caused_by,
                captured=bool(entry.get("captured")),
                killed=killed,
                webbed=webbed,
                awards=dict(entry.get("awards") or {}),
            )
        )
    return rows


def battle_record_of(
    battle: Battle, rows: Iterable[BattleFighterResult], facts: dict, *, bottled=(), fled=(), winner: str | None = None
) -> BattleRecord:
    """The battle's one record (:mod:`rulebook.n18.campaign.record`) from its fighter rows and facts."""
    gangs = {Side.ATTACKER: battle.attacker_id, Side.DEFENDER: battle.defender_id}
    ends = tuple(
        FighterEnd(
            str(r.fighter_id),
            r.fighter.name,
            r.side,
            r.outcome,
            str(r.caused_by_id) if r.caused_by_id else None,
            r.killed,
            gangs[other_role(r.side)] if r.captured else None,
            r.fighter.fighter_type.category,
            dict(r.awards or {}),
            r.webbed,
        )
        for r in rows
    )
    caskets = tuple(Casket.from_json(c) for c in facts.get("caskets") or ())
    return BattleRecord(
        battle.scenario,
        ends,
        caskets,
        facts.get("caskets_opened"),
        tuple(bottled),
        tuple(fled),
        winner,
        tuple(str(pk) for pk in facts.get("captives_freed", ())),
        gangs,
        dict(facts.get("relic_defiled") or {}),
        facts.get("caches_destroyed"),
        facts.get("caches_recovered"),
        {role: points for role, points in (facts.get("victory_points") or {}).items() if points is not None},
        tuple(str(pk) for pk in facts.get("reinforcements", ())),
        {
            role: tuple(str(pk) for pk in crew["fighters"])
            for role, crew in (battle.crews or {}).items()
            if crew.get("fighters") is not None
        },
        {str(f["captive"]): str(f["fighter"]) for f in facts.get("freed_by") or ()},
    )


def report_check(
    battle: Battle, rows: list[BattleFighterResult], facts: dict, *, bottled=(), fled=(), winner: str | None = None
) -> tuple[BattleRecord, list[Problem]]:
    """The report as the battle's one record, checked by the scenario's rules (each fighter's end, each casket,
    the scenario's facts, the Reinforcements and the result: ``rulebook.n18.campaign.record.validate_record``):
    the record completed and the problems found. The hand report's form and :func:`battle_report_submit` (which
    the battle assistant's end of battle calls) both check through here."""
    names = {Side.ATTACKER: battle.attacker.name, Side.DEFENDER: battle.defender.name}
    captives = captives_of(battle.attacker, battle.defender).count() if battle.is_rescue else 0
    record = battle_record_of(battle, rows, facts, bottled=bottled, fled=fled, winner=winner)
    return validate_record(record, names=names, captives=captives)


def report_rows(battle: Battle, fighter_results: Iterable[dict]) -> list[BattleFighterResult]:
    """The report's fighter rows (not saved), each fighter in one of the two gangs; refused otherwise."""
    return _fighter_rows(battle, fighter_results)


def _checked_facts(battle: Battle, rows: list[BattleFighterResult], facts: dict, *, bottled, fled, winner) -> dict:
    """Refuse a report whose record :func:`report_check` finds problems in; return the facts with the caskets
    as the record stores them."""
    record, problems = report_check(battle, rows, facts, bottled=bottled, fled=fled, winner=winner)
    if problems:
        raise ValidationError([p.message for p in problems])
    # The facts the fighters' deeds complete (a relic defiled by a fighter named, the caches they count) are kept
    # as the record has them, whichever report they came from.
    defiled = {role: True for role, did in record.relic_defiled.items() if did}
    if defiled:
        facts["relic_defiled"] = {**(facts.get("relic_defiled") or {}), **defiled}
    for deed in ("caches_destroyed", "caches_recovered"):
        if getattr(record, deed) is not None:
            facts[deed] = getattr(record, deed)
    if record.caskets:
        facts["caskets"] = [c.as_json() for c in record.caskets]
    if record.opened():
        facts["caskets_opened"] = record.opened()
    return facts


@transaction.atomic
def battle_report_submit(
    *,
    battle: Battle,
    actor,
    winner: Gang | None,
    is_draw: bool = False,
    attacker_bottled: bool = False,
    defender_bottled: bool = False,
    attacker_fled: bool = False,
    defender_fled: bool = False,
    fighter_results: Iterable[dict] = (),
    scenario_facts: dict | None = None,
    captives_freed: Iterable[int] = (),
    freed_by: Mapping[int, int] | None = None,
    notes: str = "",
) -> Battle:
    """Enter (or correct, until confirmed) the report of a battle.

    ``fighter_results``: one dict per fighter who took part, ``{"fighter": <pk>, "outcome": "ok" |
    "seriously_injured" | "out_of_action", "caused_by": <enemy fighter pk> or None, "captured": bool,
    "killed": bool, "webbed": bool, "awards": {...}}`` (see :class:`campaigns.models.BattleFighterResult`).
    ``scenario_facts`` is the scenario's own facts (see :class:`campaigns.models.Battle`). In a Rescue
    Mission, ``captives_freed`` are the rescuers' captives freed (and taken flight); the rest stay captive;
    ``freed_by`` names, for a captive freed by one of the rescuers (the Free Captive action), that fighter (a
    captive who broke their bonds, or was freed when the captors fled, is not in it). The battle assistant calls this
    when a battle ends; either player may call it from the report form.
    """
    battle = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("attacker", "defender", "campaign")
        .get(pk=battle.pk)
    )
    if battle.status == BattleStatus.CONFIRMED:
        raise ValidationError("This report has been confirmed; an arbitrator can revert the post-battle sequence.")
    if not battle.has_scenario:
        raise ValidationError("Roll the scenario before reporting the battle.")
    if is_draw == (winner is not None):
        raise ValidationError("Give a winner, or mark the battle a draw.")
    if winner is not None and winner.pk not in (battle.attacker_id, battle.defender_id):
        raise ValidationError(f"{winner.name} did not fight this battle.")
    fled = {Side.ATTACKER: attacker_fled, Side.DEFENDER: defender_fled}
    for side, did in fled.items():
        if did and not {Side.ATTACKER: attacker_bottled, Side.DEFENDER: defender_bottled}[side]:
            raise ValidationError("A gang flees only after bottling out.")
    if attacker_fled != defender_fled:
        # The guide's scenarios: a gang that voluntarily bottles out and flees loses.
        stayed = battle.defender if attacker_fled else battle.attacker
        if winner is None or winner.pk != stayed.pk:
            raise ValidationError(f"The gang that fled loses: {stayed.name} wins.")
    rows = _fighter_rows(battle, fighter_results)
    facts = dict(scenario_facts or {})
    freed = sorted(set(captives_freed))
    if freed:
        held = set(captives_of(battle.attacker, battle.defender).values_list("pk", flat=True))
        if not battle.is_rescue or not set(freed) <= held:
            raise ValidationError(f"Only a Rescue Mission frees captives, and only those {battle.defender.name} holds.")
        facts["captives_freed"] = freed
    if freed_by:
        facts["freed_by"] = [{"captive": c, "fighter": f} for c, f in sorted(freed_by.items())]
    bottled = tuple(side for side, did in ((Side.ATTACKER, attacker_bottled), (Side.DEFENDER, defender_bottled)) if did)
    role = battle.side_of(winner) if winner is not None else None
    facts = _checked_facts(
        battle, rows, facts, bottled=bottled, fled=tuple(side for side, did in fled.items() if did), winner=role
    )
    battle.winner, battle.is_draw = winner, is_draw
    battle.attacker_bottled, battle.defender_bottled = attacker_bottled, defender_bottled
    battle.attacker_fled, battle.defender_fled = attacker_fled, defender_fled
    battle.scenario_facts = facts
    battle.notes = notes
    battle.status = BattleStatus.REPORTED
    battle.reported_by, battle.reported_at = actor, timezone.now()
    battle.save()
    battle.fighter_results.all().delete()
    BattleFighterResult.objects.bulk_create(rows)
    announce(EventKind.BATTLE_REPORTED, battle)
    return battle


@transaction.atomic
def battle_report_confirm(*, battle: Battle, actor, is_arbitrator: bool) -> Battle:
    """The opponent (or an arbitrator) confirms the report; a territory challenged for changes hands
    if the challenger won. The post-battle sequence starts from here (``status == confirmed``)."""
    battle = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("attacker", "defender", "campaign")
        .get(pk=battle.pk)
    )
    if battle.status != BattleStatus.REPORTED:
        raise ValidationError(
            "There is no report waiting for confirmation."
            if battle.status == BattleStatus.SCHEDULED
            else "This report has been confirmed already."
        )
    # An arbitrator who plays one of the two gangs confirms only as that gang's player (separation of duties).
    is_arbitrator = is_arbitrator and actor.pk not in (battle.attacker.owner_id, battle.defender.owner_id)
    if not is_arbitrator and battle.reported_by_id == actor.pk:
        raise ValidationError("The opponent or an arbitrator confirms a report, not the player who entered it.")
    battle.status = BattleStatus.CONFIRMED
    battle.confirmed_by, battle.confirmed_at = actor, timezone.now()
    stakes = battle.stakes
    if stakes is not None and battle.winner_id == battle.attacker_id and stakes.holder_id != battle.attacker_id:
        _territory_move(stakes, battle.attacker, actor, reason=f"Won {battle.scenario_name}", battle=battle)
    # The territories each gang holds as the battle is confirmed (the challenged one moved): the post-battle
    # sequence collects income from these, however often it is reverted and run again later.
    battle.held_at_confirmation = holdings(battle)
    battle.save(update_fields=["status", "confirmed_by", "confirmed_at", "held_at_confirmation"])
    if battle.is_rescue:
        _rescue_resolve(battle, actor)
    # Hired for this battle only: they leave before the post-battle sequence, which they take no part in.
    hired_guns_leave(battle=battle, actor=actor)
    # The rosters as the sequence will read them (rescued captives freed, Hired Guns gone), however often it is
    # reverted and run again while the rosters change.
    battle.roster_at_confirmation = rosters_at_confirmation(battle)
    battle.save(update_fields=["roster_at_confirmation"])
    for gang in (battle.attacker, battle.defender):
        standing_snapshot_take(campaign=battle.campaign, gang=gang, reason=f"{battle.scenario_name}: {battle}")
    announce(EventKind.BATTLE_CONFIRMED, battle)
    return battle


def _rescue_resolve(battle: Battle, actor) -> None:
    """A confirmed Rescue Mission: each captive freed goes back to their gang, Active (the captors can no
    longer sell or dispose of them); each one not freed stays captive. 2018+ rulebook, Rescue Mission
    (necrovox copy): the captives freed and taken flight are rescued; a failed rescue changes nothing.
    Any fighter, Hangers-on too, can be a captive: the rule reads the status, not the type."""
    freed = set(battle.scenario_facts.get("captives_freed") or [])
    captives = captives_of(battle.attacker, battle.defender).select_for_update()
    for captive in captives.filter(pk__in=freed):
        fighter_status_set(
            fighter=captive,
            status=FighterStatus.ACTIVE,
            actor=actor,
            battle=battle,
            reason=f"Rescued from {battle.defender.name} ({battle.scenario_name})",
        )

"""Every change to a campaign: membership, cycles, matchmaking, territories, scenario rolls, crews
and battle reports.

Rules come from ``rulebook`` (the campaign guide's scenario table, crews, matchmaking; the classic
scenario table); these services turn rows into its inputs, call it and store what it decided with
its dice. Permissions are the views' job; a refusal a user can hit here is a ``ValidationError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import rules
from campaigns.models import (
    Battle,
    BattleFighterResult,
    BattleOrigin,
    BattleStatus,
    Campaign,
    CampaignArbitrator,
    CampaignGang,
    CampaignStatus,
    CampaignTerritory,
    Cycle,
    Outcome,
    Side,
    StandingSnapshot,
)
from campaigns.selectors import active_memberships, captives_of, contenders, engaged_gang_ids, rating_of, standings
from content.models import Territory
from gangs.ledger import ledger_record
from gangs.models import Fighter, Gang, LedgerKind
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.matchmaking import next_challenger, pair_at_random


def _rolled_since(dice: DiceSource, mark: int) -> list[dict]:
    """The dice this step rolled (a source may be shared by several steps)."""
    return [r.as_json() for r in dice.rolls[mark:]]


def _rules_error(err: RulesInputError) -> ValidationError:
    return ValidationError(f"{err.field}: {err.message}" if err.field != "dice" else err.message)


# --- campaigns and membership --------------------------------------------------------------------


@transaction.atomic
def campaign_create(
    *, user, edition: str, name: str, description: str = "", starting_credits: int = 1000, house_rules: str = ""
) -> Campaign:
    campaign = Campaign.objects.create(
        edition=edition,
        name=name,
        description=description,
        starting_credits=starting_credits,
        house_rules=house_rules,
        created_by=user,
    )
    CampaignArbitrator.objects.create(campaign=campaign, user=user)
    return campaign


@transaction.atomic
def campaign_update(
    *, campaign: Campaign, name: str, description: str, starting_credits: int, house_rules: str
) -> Campaign:
    campaign.name, campaign.description, campaign.house_rules = name, description, house_rules
    campaign.starting_credits = starting_credits
    campaign.save(update_fields=["name", "description", "starting_credits", "house_rules"])
    return campaign


@transaction.atomic
def arbitrator_add(*, campaign: Campaign, user) -> CampaignArbitrator:
    if campaign.arbitrators.filter(user=user).exists():
        raise ValidationError(f"{user} is already an arbitrator of this campaign.")
    return CampaignArbitrator.objects.create(campaign=campaign, user=user)


def _snapshot(campaign: Campaign, gang: Gang, reason: str) -> StandingSnapshot:
    gang.refresh_from_db(fields=["reputation"])
    return StandingSnapshot.objects.create(
        campaign=campaign, gang=gang, rating=rating_of(gang), reputation=gang.reputation, reason=reason
    )


def _home_settlement(campaign: Campaign, gang: Gang, actor) -> CampaignTerritory | None:
    """Give a 2018+ gang its Home Settlement (and its +1 Reputation while held)."""
    territory = rules.home_settlement_territory(campaign.edition)
    if territory is None:
        return None
    held = CampaignTerritory.objects.create(
        campaign=campaign, territory=territory, holder=gang, is_home_settlement=True
    )
    ledger_record(
        gang=gang,
        kind=LedgerKind.TERRITORY,
        reputation=rules.HOME_SETTLEMENT_REPUTATION,
        description=f"Home Settlement in {campaign.name}",
        reason=rules.HOME_SETTLEMENT_SOURCE,
        data={"campaign": campaign.pk, "territory": held.pk},
        actor=actor,
    )
    return held


@transaction.atomic
def campaign_join(*, campaign: Campaign, gang: Gang, user) -> CampaignGang:
    """A player enters one of their gangs of the campaign's edition."""
    if gang.owner_id != user.pk:
        raise ValidationError("You can enter only your own gang.")
    if gang.edition != campaign.edition:
        raise ValidationError(f"{gang.name} is a {gang.get_edition_display()} gang; this campaign plays "
                              f"{campaign.get_edition_display()}.")  # fmt: skip
    if campaign.status == CampaignStatus.FINISHED:
        raise ValidationError("This campaign has finished.")
    if CampaignGang.objects.filter(campaign=campaign, gang=gang).exists():
        raise ValidationError(f"{gang.name} has already been entered in this campaign.")
    if gang.memberships.filter(removed_at__isnull=True).exists():
        raise ValidationError(f"{gang.name} already plays in another campaign.")
    membership = CampaignGang.objects.create(campaign=campaign, gang=gang)
    _home_settlement(campaign, gang, user)
    _snapshot(campaign, gang, "joined")
    return membership


@transaction.atomic
def gang_remove(*, membership: CampaignGang, actor) -> CampaignGang:
    """The arbitrator removes a gang: it keeps its history; its territories go back to the pool."""
    if not membership.is_active:
        raise ValidationError(f"{membership.gang.name} has already been removed.")
    campaign, gang = membership.campaign, membership.gang
    for held in campaign.territories.filter(holder=gang).select_related("territory"):
        if held.is_home_settlement:
            ledger_record(gang=gang, kind=LedgerKind.TERRITORY, reputation=-rules.HOME_SETTLEMENT_REPUTATION,
                          description=f"Left {campaign.name}: Home Settlement given up",
                          reason="Removed from the campaign", actor=actor)  # fmt: skip
            held.delete()
        else:
            _territory_move(held, None, actor, reason="Removed from the campaign")
    membership.removed_at = timezone.now()
    membership.save(update_fields=["removed_at"])
    return membership


@transaction.atomic
def wants_to_play_set(*, membership: CampaignGang, wants_to_play: bool) -> CampaignGang:
    membership.wants_to_play = wants_to_play
    membership.save(update_fields=["wants_to_play"])
    return membership


# --- status and cycles ---------------------------------------------------------------------------


def _lock(campaign: Campaign) -> None:
    """Lock the campaign row for this transaction and refresh the caller's object (cycle, status)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).exists()
    campaign.refresh_from_db()


def _require_in_progress(campaign: Campaign) -> None:
    if campaign.status != CampaignStatus.IN_PROGRESS:
        raise ValidationError(f"The campaign is {campaign.get_status_display().lower()}.")


def _snapshot_all(campaign: Campaign, reason: str) -> None:
    for membership in active_memberships(campaign).select_related("gang"):
        _snapshot(campaign, membership.gang, reason)


@transaction.atomic
def campaign_start(*, campaign: Campaign) -> Campaign:
    """Start the campaign: a 2018+ campaign opens Cycle 1; a classic one simply begins."""
    _lock(campaign)
    if campaign.status != CampaignStatus.NOT_STARTED:
        raise ValidationError("The campaign has already started.")
    if active_memberships(campaign).count() < 2:
        raise ValidationError("A campaign needs at least two gangs.")
    campaign.status = CampaignStatus.IN_PROGRESS
    campaign.save(update_fields=["status"])
    if campaign.has_cycles:
        _open_cycle(campaign, 1)
    _snapshot_all(campaign, "campaign started")
    return campaign


def _open_cycle(campaign: Campaign, number: int) -> Cycle:
    campaign.cycle = number
    campaign.save(update_fields=["cycle"])
    return Cycle.objects.create(campaign=campaign, number=number)


@transaction.atomic
def cycle_advance(*, campaign: Campaign) -> Cycle:
    _lock(campaign)
    _require_in_progress(campaign)
    if not campaign.has_cycles:
        raise ValidationError("Classic campaigns have no cycles: pair battles freely.")
    cycle = _open_cycle(campaign, campaign.cycle + 1)
    _snapshot_all(campaign, f"Cycle {cycle.number}")
    return cycle


@transaction.atomic
def campaign_finish(*, campaign: Campaign) -> Campaign:
    _require_in_progress(campaign)
    campaign.status = CampaignStatus.FINISHED
    campaign.save(update_fields=["status"])
    return campaign


# --- matchmaking -----------------------------------------------------------------------------------


def _current_cycle(campaign: Campaign) -> Cycle:
    campaign.refresh_from_db(fields=["status", "cycle"])
    _require_in_progress(campaign)
    if not campaign.has_cycles:
        raise ValidationError("Classic campaigns have no cycles: pair battles freely.")
    return campaign.cycles.get(number=campaign.cycle)


def _member(campaign: Campaign, gang: Gang) -> None:
    if not active_memberships(campaign).filter(gang=gang).exists():
        raise ValidationError(f"{gang.name} does not play in this campaign.")


@transaction.atomic
def cycle_pair(*, campaign: Campaign, dice: DiceSource) -> Cycle:
    """Cycle 1: pair at random the gangs who want to play. Running it again re-rolls every pairing
    that has not been reported yet; gangs whose battle was reported keep it."""
    _lock(campaign)
    cycle = _current_cycle(campaign)
    if cycle.number != 1:
        raise ValidationError("Random pairing is for Cycle 1; from Cycle 2 gangs issue challenges.")
    cycle.battles.filter(origin=BattleOrigin.PAIRING, status=BattleStatus.SCHEDULED).delete()
    engaged = engaged_gang_ids(cycle) - set(cycle.passed.values_list("pk", flat=True))
    willing = active_memberships(campaign).filter(wants_to_play=True).exclude(gang_id__in=engaged)
    gang_ids = [str(m.gang_id) for m in willing.order_by("gang__name", "gang_id")]
    try:
        pairing = pair_at_random(gang_ids, dice)
    except RulesInputError as err:
        raise _rules_error(err) from err
    for first, second in pairing.pairs:
        Battle.objects.create(campaign=campaign, cycle=cycle, origin=BattleOrigin.PAIRING,
                              attacker_id=int(first), defender_id=int(second))  # fmt: skip
    cycle.pairing_dice = list(pairing.dice)
    cycle.odd_gang_out_id = int(pairing.odd_one_out) if pairing.odd_one_out else None
    cycle.save(update_fields=["pairing_dice", "odd_gang_out"])
    return cycle


@transaction.atomic
def battle_arrange(
    *, campaign: Campaign, attacker: Gang, defender: Gang, stakes: CampaignTerritory | None = None
) -> Battle:
    """An arbitrator pairs two gangs: the classic rules' free pairing, or an adjustment to a cycle."""
    _require_in_progress(campaign)
    if attacker.pk == defender.pk:
        raise ValidationError("A gang cannot fight itself.")
    _member(campaign, attacker)
    _member(campaign, defender)
    cycle = _current_cycle(campaign) if campaign.has_cycles else None
    if cycle and {attacker.pk, defender.pk} & (
        engaged_gang_ids(cycle) - set(cycle.passed.values_list("pk", flat=True))
    ):
        raise ValidationError("One of these gangs already has a battle this cycle; cancel it first.")
    if stakes is not None:
        _check_stakes(campaign, stakes, defender)
    return Battle.objects.create(campaign=campaign, cycle=cycle, origin=BattleOrigin.ARRANGED,
                                 attacker=attacker, defender=defender, stakes=stakes)  # fmt: skip


@transaction.atomic
def battle_cancel(*, battle: Battle) -> None:
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status != BattleStatus.SCHEDULED:
        raise ValidationError("Only a battle that has not been reported can be cancelled.")
    battle.delete()


def _check_stakes(campaign: Campaign, stakes: CampaignTerritory, defender: Gang) -> None:
    if stakes.campaign_id != campaign.pk:
        raise ValidationError("That territory is not in this campaign.")
    if stakes.is_home_settlement:
        raise ValidationError("A Home Settlement cannot be lost.")
    if stakes.holder_id not in (None, defender.pk):
        raise ValidationError("Challenge for a territory the challenged gang holds, or an unclaimed one.")


@transaction.atomic
def challenge_issue(
    *, campaign: Campaign, challenger: Gang, target: Gang, stakes: CampaignTerritory | None = None, rescue: bool = False
) -> Battle:
    """From Cycle 2 the gangs challenge in order, lowest rating first, for a territory or, against the
    gang holding one of their fighters captive, for a Rescue Mission. The challenger attacks."""
    _lock(campaign)
    cycle = _current_cycle(campaign)
    if cycle.number < 2:
        raise ValidationError("Challenges start in Cycle 2; Cycle 1 is paired at random.")
    if challenger.pk == target.pk:
        raise ValidationError("A gang cannot challenge itself.")
    _member(campaign, target)
    engaged = engaged_gang_ids(cycle)
    turn = next_challenger(contenders(standings(campaign)), done={str(i) for i in engaged})
    if turn is None or turn.id != str(challenger.pk):
        waiting = f"{turn.name} challenges next" if turn else "every gang has played or passed"
        raise ValidationError(f"It is not {challenger.name}'s turn: {waiting} (lowest rating first).")
    if target.pk in engaged:
        raise ValidationError(f"{target.name} already has a battle this cycle or has passed.")
    if rescue == (stakes is not None):
        raise ValidationError("Challenge either for a territory or for a Rescue Mission.")
    if rescue and not captives_of(challenger, target).exists():
        raise ValidationError(f"{target.name} holds none of {challenger.name}'s fighters captive.")
    if stakes is not None:
        _check_stakes(campaign, stakes, target)
    return Battle.objects.create(campaign=campaign, cycle=cycle, origin=BattleOrigin.CHALLENGE,
                                 attacker=challenger, defender=target, stakes=stakes, is_rescue=rescue)  # fmt: skip


@transaction.atomic
def challenge_pass(*, campaign: Campaign, gang: Gang) -> Cycle:
    """A gang declines to issue a challenge this cycle, letting the next gang in order challenge."""
    cycle = _current_cycle(campaign)
    _member(campaign, gang)
    if gang.pk in engaged_gang_ids(cycle):
        raise ValidationError(f"{gang.name} already has a battle this cycle or has passed.")
    cycle.passed.add(gang)
    return cycle


# --- territories -----------------------------------------------------------------------------------


@transaction.atomic
def territory_add(*, campaign: Campaign, territory: Territory) -> CampaignTerritory:
    if territory.edition != campaign.edition:
        raise ValidationError("That territory belongs to another edition.")
    if territory.is_home_settlement:
        raise ValidationError("Home Settlements are given to each gang when it joins.")
    return CampaignTerritory.objects.create(campaign=campaign, territory=territory)


def _territory_move(held: CampaignTerritory, holder: Gang | None, actor, *, reason: str, battle=None) -> None:
    name, data = held.territory.name, {"campaign": held.campaign_id, "territory": held.pk}
    if battle is not None:
        data["battle"] = battle.pk
    if held.holder_id:
        ledger_record(gang=held.holder, kind=LedgerKind.TERRITORY, description=f"Lost {name}", reason=reason,
                      data=data, actor=actor)  # fmt: skip
    if holder is not None:
        ledger_record(gang=holder, kind=LedgerKind.TERRITORY, description=f"Took {name}", reason=reason,
                      data=data, actor=actor)  # fmt: skip
    held.holder = holder
    held.save(update_fields=["holder", "changed_at"])


@transaction.atomic
def territory_assign(*, held: CampaignTerritory, holder: Gang | None, actor, reason: str = "") -> CampaignTerritory:
    """An arbitrator hands a territory to a gang, or back to the pool. Home Settlements stay put."""
    if held.is_home_settlement:
        raise ValidationError("A Home Settlement cannot be lost.")
    if holder is not None:
        _member(held.campaign, holder)
    if held.holder_id == (holder.pk if holder else None):
        raise ValidationError("That gang already holds it." if holder else "It is already unclaimed.")
    _territory_move(held, holder, actor, reason=reason or "Arbitrator's decision")
    return held


# --- the battle: scenario and crews ---------------------------------------------------------------


def _require_scheduled(battle: Battle) -> None:
    if battle.status != BattleStatus.SCHEDULED:
        raise ValidationError("This battle has been reported already.")


@transaction.atomic
def battle_scenario_roll(*, battle: Battle, dice: DiceSource, entered: bool = False) -> Battle:
    """Roll (or enter) the scenario with its dice; a battle that was not a challenge rolls off for
    attacker when the scenario has one. Rolling again replaces the roll and any crews."""
    battle = Battle.objects.select_for_update().select_related("attacker", "defender").get(pk=battle.pk)
    _require_scheduled(battle)
    mark = len(dice.rolls)
    # The challenger attacks; any other battle rolls off (attacker first, so a tie-free roll is readable).
    roll_off = None if battle.origin == BattleOrigin.CHALLENGE else (battle.attacker.name, battle.defender.name)
    try:
        result = rules.roll_scenario(battle.campaign.edition, dice, rescue=battle.is_rescue, roll_off_between=roll_off)
    except RulesInputError as err:
        raise _rules_error(err) from err
    if result.defender_wins_roll_off:
        battle.attacker, battle.defender = battle.defender, battle.attacker
    battle.scenario, battle.scenario_name = result.slug, result.name
    battle.has_roles = result.has_roles
    battle.scenario_roll = {"roll": result.roll, "dice": _rolled_since(dice, mark), "entered": entered, **result.extra}
    battle.rewards = list(result.rewards)
    battle.crews = {}
    battle.save()
    return battle


@transaction.atomic
def battle_scenario_choose(*, battle: Battle, scenario: str, chooser: Gang) -> Battle:
    """Classic: when the Scenario table lets a player choose, the chosen scenario; the gang that
    picks a scenario with an attacker and a defender attacks (1995 rulebook, Pre-battle Sequence)."""
    battle = Battle.objects.select_for_update().select_related("attacker", "defender").get(pk=battle.pk)
    _require_scheduled(battle)
    if battle.scenario or not battle.scenario_roll.get("chooser"):
        raise ValidationError("The scenario table did not leave this choice to a player.")
    name, has_roles = rules.classic_choice(scenario)
    if chooser.pk == battle.defender_id:
        battle.attacker, battle.defender = battle.defender, battle.attacker
    battle.scenario, battle.scenario_name, battle.has_roles = scenario, name, has_roles
    battle.scenario_roll = {**battle.scenario_roll, "chosen_by": chooser.pk}
    battle.save()
    return battle


def crew_candidates(gang: Gang) -> list[Fighter]:
    """The gang's fighters a crew is picked from (the unavailable ones included, to be shown)."""
    return list(gang.fighters.exclude(status__in=rules.GONE).order_by("order", "pk"))


def _crew_rule(battle: Battle, side: str, fighters: list[Fighter]):
    if side not in Side.values:
        raise ValidationError(f"Unknown side {side!r}.")
    return rules.crew_rule(battle.campaign.edition, battle.scenario, side, len(rules.available(fighters)))


@transaction.atomic
def battle_crew_size_roll(*, battle: Battle, side: str, dice: DiceSource) -> Battle:
    """Roll how many fighters a side chooses and how many are picked at random (crew dice)."""
    battle = Battle.objects.select_for_update().select_related("campaign", "attacker", "defender").get(pk=battle.pk)
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
    battle = Battle.objects.select_for_update().select_related("campaign", "attacker", "defender").get(pk=battle.pk)
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
    battle.crews = {**battle.crews, side: {**stored, **result}}
    battle.save(update_fields=["crews"])
    return battle


# --- the battle report ----------------------------------------------------------------------------


def _fighter_rows(battle: Battle, fighter_results: Iterable[dict]) -> list[BattleFighterResult]:
    sides = {battle.attacker_id: Side.ATTACKER, battle.defender_id: Side.DEFENDER}
    ids = set()
    rows = []
    entries = list(fighter_results)
    fighters = Fighter.objects.in_bulk(
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
        if outcome not in Outcome.values:
            raise ValidationError(f"{fighter.name}: unknown outcome {outcome!r}.")
        caused_by = fighters.get(entry["caused_by"]) if entry.get("caused_by") else None
        if caused_by is not None and caused_by.gang_id not in set(sides) - {fighter.gang_id}:
            raise ValidationError(f"{fighter.name} can only be taken down by an enemy fighter.")
        if caused_by is not None and outcome == Outcome.OK:
            raise ValidationError(f"{fighter.name} is fine, so nobody took them down.")
        rows.append(BattleFighterResult(battle=battle, fighter=fighter, side=sides[fighter.gang_id], outcome=outcome,
                                        caused_by=caused_by, captured=bool(entry.get("captured")),
                                        awards=dict(entry.get("awards") or {})))  # fmt: skip
    return rows


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
    notes: str = "",
) -> Battle:
    """Enter (or correct, until confirmed) the report of a battle.

    ``fighter_results``: one dict per fighter who took part, ``{"fighter": <pk>, "outcome": "ok" |
    "seriously_injured" | "out_of_action", "caused_by": <enemy fighter pk> or None, "captured": bool,
    "awards": {...}}`` (see :class:`campaigns.models.BattleFighterResult`). ``scenario_facts`` is
    the scenario's own facts (see :class:`campaigns.models.Battle`). The battle assistant calls this
    when a battle ends; either player may call it from the report form.
    """
    battle = Battle.objects.select_for_update().select_related("attacker", "defender", "campaign").get(pk=battle.pk)
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
    battle.winner, battle.is_draw = winner, is_draw
    battle.attacker_bottled, battle.defender_bottled = attacker_bottled, defender_bottled
    battle.attacker_fled, battle.defender_fled = attacker_fled, defender_fled
    battle.scenario_facts = dict(scenario_facts or {})
    battle.notes = notes
    battle.status = BattleStatus.REPORTED
    battle.reported_by, battle.reported_at = actor, timezone.now()
    battle.save()
    battle.fighter_results.all().delete()
    BattleFighterResult.objects.bulk_create(rows)
    return battle


@transaction.atomic
def battle_report_confirm(*, battle: Battle, actor, is_arbitrator: bool) -> Battle:
    """The opponent (or an arbitrator) confirms the report; a territory challenged for changes hands
    if the challenger won. The post-battle sequence starts from here (``status == confirmed``)."""
    battle = Battle.objects.select_for_update().select_related("attacker", "defender", "campaign").get(pk=battle.pk)
    if battle.status != BattleStatus.REPORTED:
        raise ValidationError("There is no report waiting for confirmation." if battle.status == BattleStatus.SCHEDULED
                              else "This report has been confirmed already.")  # fmt: skip
    if not is_arbitrator and battle.reported_by_id == actor.pk:
        raise ValidationError("The opponent or an arbitrator confirms a report, not the player who entered it.")
    battle.status = BattleStatus.CONFIRMED
    battle.confirmed_by, battle.confirmed_at = actor, timezone.now()
    battle.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    stakes = battle.stakes
    if stakes is not None and battle.winner_id == battle.attacker_id and stakes.holder_id != battle.attacker_id:
        _territory_move(stakes, battle.attacker, actor, reason=f"Won {battle.scenario_name}", battle=battle)
    for gang in (battle.attacker, battle.defender):
        _snapshot(battle.campaign, gang, f"{battle.scenario_name}: {battle}")
    return battle

"""Bringing fighters into a battle: the start (two saved gangs or a campaign battle, each side's crew, a snapshot
of every fighter) and the Reinforcements that arrive later."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.models import PHASES, BattleAction, BattleFighter, BattleSession, Role
from battles.models import BattleStatus as SessionStatus
from battles.roster import fighter_prefetch, snapshot
from battles.rules import edition_rules
from battles.services.state import battle_state, locked, log_action, save_state
from campaigns.models import Side
from campaigns.selectors import crew_candidates, hired_guns_of
from gangs.models import Fighter, Gang
from gangs.services.equipment import take_chem_doses
from rulebook.dice import DiceSource, RandomDice

# What a fighter's snapshot (battles.roster.snapshot) reads, loaded with the crew he is picked from.
SNAPSHOT_READS = {"select": ("fighter_type__house", "gang"), "prefetch": fighter_prefetch()}


def _available(gang: Gang) -> list[Fighter]:
    """Fighters a crew or Reinforcements are picked from: the campaign's crew candidates fit to fight now
    (Hangers-on who stay at the hideout and Hired Guns, who join the battle they were hired for after the picks,
    are left out)."""
    return crew_candidates(gang, fit_to_fight=True, **SNAPSHOT_READS)


def _hired_guns(gang: Gang, campaign_battle) -> list[Fighter]:
    """The Hired Guns ``gang`` hired for this campaign battle: they join the crew after it is chosen."""
    return hired_guns_of(campaign_battle, gang, **SNAPSHOT_READS) if campaign_battle is not None else []


def _scenario_crew(scenario_slug: str, role: str, edition: str):
    """The campaign guide's crew rule for this side, or None for a free choice."""
    if edition != "n18" or not scenario_slug:
        return None
    from rulebook.n18.campaign.scenarios import SCENARIOS

    scenario = SCENARIOS.get(scenario_slug)
    if scenario is None or not scenario.crews:
        return None
    return scenario.crew(role or "attacker")


def crew_pick(*, gang: Gang, chosen: list[int], scenario: str, role: str, dice: DiceSource) -> dict:
    """Pick a side's crew: the player's choice, or the scenario's crew rule with random picks rolled.

    With a crew rule the number the player may choose is rolled first; the player's picks are kept in the
    order given up to that number, then the random picks are rolled among the rest (every die recorded).
    """
    fighters = _available(gang)
    by_id = {f.pk: f for f in fighters}
    unknown = [pk for pk in chosen if pk not in by_id]
    if unknown:
        raise ValidationError(f"Not an available fighter of {gang.name}: {unknown}")
    rule = _scenario_crew(scenario, role, gang.edition)
    if rule is None:
        picked = chosen or list(by_id)
        return {"method": "custom", "label": "Chosen by the player", "fighters": picked, "dice": []}
    from rulebook.n18.campaign.scenarios import roll_crew_size, select_crew
    from rulebook.roster import FighterSnapshot

    mark = len(dice.rolls)
    size = roll_crew_size(rule, dice)
    if not chosen and rule.method == "custom":
        chosen = list(by_id)  # nobody ticked: the roster's first fighters, as many as the rule allows
    snapshots = [FighterSnapshot(characteristics={}, id=str(f.pk)) for f in fighters]
    picked = select_crew(rule, snapshots, dice, chosen=[str(pk) for pk in chosen[: size[0]]], size=size)
    return {
        "method": rule.method,
        "label": rule.label,
        "may_choose": picked["may_choose"],
        "random_count": picked["random_count"],
        "chosen": [int(pk) for pk in picked["chosen"]],
        "random": [int(pk) for pk in picked["random"]],
        "fighters": [int(pk) for pk in picked["fighters"]],
        "dice": [r.as_json() for r in dice.rolls[mark:]],
    }


@transaction.atomic
def battle_start(
    *,
    gang_a: Gang,
    gang_b: Gang,
    started_by,
    chosen_a: list[int] | None = None,
    chosen_b: list[int] | None = None,
    scenario: str = "",
    scenario_name: str = "",
    role_a: str = "",
    campaign_battle=None,
    crews: dict | None = None,
    dice: DiceSource | None = None,
) -> BattleSession:
    """Start a battle between two saved gangs of one edition, with each side's crew.

    ``crews`` (``{"attacker": {"fighters": [ids], ...}, "defender": ...}``) are crews picked already, by a campaign
    battle; otherwise each side's crew is picked here (:func:`crew_pick`).
    """
    if gang_a.pk == gang_b.pk:
        raise ValidationError("Pick two different gangs.")
    if gang_a.edition != gang_b.edition:
        raise ValidationError("Both gangs must play the same edition.")
    dice = dice or RandomDice()
    if scenario and not scenario_name and gang_a.edition == "n18":
        from rulebook.n18.campaign.scenarios import SCENARIOS

        scenario_name = SCENARIOS[scenario].name if scenario in SCENARIOS else scenario
    role_b = {Role.ATTACKER: Role.DEFENDER, Role.DEFENDER: Role.ATTACKER}.get(role_a, "")
    crews = crews or {
        Side.ATTACKER: crew_pick(gang=gang_a, chosen=chosen_a or [], scenario=scenario, role=role_a, dice=dice),
        Side.DEFENDER: crew_pick(gang=gang_b, chosen=chosen_b or [], scenario=scenario, role=role_b, dice=dice),
    }
    hired = {
        side: _hired_guns(gang, campaign_battle) for side, gang in ((Side.ATTACKER, gang_a), (Side.DEFENDER, gang_b))
    }
    for side, gang in ((Side.ATTACKER, gang_a), (Side.DEFENDER, gang_b)):
        if not crews[side]["fighters"]:
            raise ValidationError(f"{gang.name} has no fighter available for battle.")
        joining = [f.pk for f in hired[side] if f.pk not in crews[side]["fighters"]]
        crews[side] = {**crews[side], "fighters": [*crews[side]["fighters"], *joining]}
    _refuse_fighters_in_open_sessions(gang_a, gang_b, crews)
    session = BattleSession.objects.create(
        edition=gang_a.edition,
        campaign_battle=campaign_battle,
        scenario=scenario,
        scenario_name=scenario_name,
        gang_a=gang_a,
        gang_b=gang_b,
        player_a=gang_a.owner,
        player_b=gang_b.owner,
        role_a=role_a,
        role_b=role_b,
        starting_crew_a=len(crews[Side.ATTACKER]["fighters"]),
        starting_crew_b=len(crews[Side.DEFENDER]["fighters"]),
        crews=crews,
        phase=PHASES[gang_a.edition][0],
        created_by=started_by,
    )
    rows = []
    for side, gang in ((Side.ATTACKER, gang_a), (Side.DEFENDER, gang_b)):
        by_id = {f.pk: f for f in [*_available(gang), *hired[side]]}
        missing = [pk for pk in crews[side]["fighters"] if pk not in by_id]
        if missing:
            raise ValidationError(f"{gang.name}: fighters {missing} are not available for battle.")
        rows += [_in_play(session, side, by_id[pk], order) for order, pk in enumerate(crews[side]["fighters"])]
    BattleFighter.objects.bulk_create(rows)
    take_chem_doses(fighters=[row.fighter for row in rows], session=session, actor=started_by)
    return session


def _in_play(session: BattleSession, side: str, fighter: Fighter, order: int) -> BattleFighter:
    """A roster fighter brought into the battle: the snapshot and the edition's fresh state."""
    profile = snapshot(fighter)
    fresh = edition_rules(session.edition).fresh_state(profile)
    return BattleFighter(
        session=session, side=side, fighter=fighter, name=fighter.name, order=order, profile=profile, **fresh
    )


def _refuse_fighters_in_open_sessions(gang_a: Gang, gang_b: Gang, crews: dict) -> None:
    """A fighter is in one battle at a time: refuse a crew holding a fighter still in play in a session not yet
    ended. The two gangs' rows are locked first (in a fixed order), so two starts at once cannot both pass."""
    list(Gang.objects.select_for_update(of=("self",)).filter(pk__in=[gang_a.pk, gang_b.pk]).order_by("pk"))
    wanted = [pk for side in (Side.ATTACKER, Side.DEFENDER) for pk in crews[side]["fighters"]]
    busy = (
        BattleFighter.objects.filter(fighter_id__in=wanted, session__status=SessionStatus.IN_PROGRESS)
        .select_related("session__gang_a", "session__gang_b")
        .order_by("session_id", "order")
    )
    problems = [f"{row.name} is in play in {row.session} (started {row.session.created_at:%d %b})" for row in busy]
    if problems:
        raise ValidationError(
            [*problems, "A fighter fights one battle at a time: end that battle first, or leave them out of the crew."]
        )


# The campaign guide's Reinforcements: Border Dispute, D3 a gang each End phase; Search & Destroy, the
# defender's one each End phase from round 2.
REINFORCEMENTS = {"border-dispute": "D3", "search-and-destroy": "1"}


@transaction.atomic
def battle_reinforce(
    *, session: BattleSession, side: str, actor, count: int | None = None, dice: DiceSource | None = None
) -> BattleAction:
    """Bring Reinforcements in: ``count`` fighters (or the scenario's dice), picked at random from the
    gang's fighters available and not yet in the battle, every die shown. Undo takes them out again."""
    from rulebook.roster import pick_index, roll_amount

    session, fighters = locked(session)
    if side not in Side.values:
        raise ValidationError("Reinforcements come to one of the two gangs.")
    dice = dice or RandomDice()
    before = battle_state(session, fighters)
    if count is None:
        count = roll_amount(REINFORCEMENTS.get(session.scenario, "1"), dice, "Reinforcements")
    in_play = {f.fighter_id for f in fighters}
    pool = [f for f in _available(session.gang(side)) if f.pk not in in_play]
    order = max((f.order for f in fighters if f.side == side), default=0) + 1
    arriving = []
    while pool and len(arriving) < count:
        purpose = f"Reinforcement {len(arriving) + 1} of {count} among {len(pool)}"
        arriving.append(_in_play(session, side, pool.pop(pick_index(len(pool), dice, purpose)), order + len(arriving)))
    BattleFighter.objects.bulk_create(arriving)
    take_chem_doses(fighters=[row.fighter for row in arriving], session=session, actor=actor)
    names = ", ".join(f.name for f in arriving) or "nobody: no fighter left to send"
    words = f"Reinforcements for {session.gang(side).name}: {names}"
    save_state(session, fighters, before)
    return log_action(
        session, before, actor, kind="reinforce", side=side, summary=words, changes=[words], dice=dice.log()
    )


@transaction.atomic
def battle_start_from_campaign(*, campaign_battle, started_by, dice: DiceSource | None = None) -> BattleSession:
    """Start the battle a campaign paired: attacker as the first gang, its scenario and the crews it picked.

    The campaign battle's row is locked: a battle is started once, however many requests arrive together;
    the others (a double tap, the other player at the same moment) get the battle already in play."""
    from campaigns.models import Battle, BattleStatus

    campaign_battle = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("attacker__owner", "defender__owner", "campaign")
        .get(pk=campaign_battle.pk)
    )
    in_play = campaign_battle.sessions.filter(status=SessionStatus.IN_PROGRESS).order_by("pk").first()
    if in_play is not None:
        return in_play
    if campaign_battle.status != BattleStatus.SCHEDULED:
        raise ValidationError("This battle has been reported already.")
    if not campaign_battle.scenario:
        raise ValidationError("Roll the scenario for this campaign battle first.")
    picked = campaign_battle.crews or {}
    roles = (Role.ATTACKER, Role.DEFENDER)
    crews = None
    if all(picked.get(role, {}).get("fighters") for role in roles):
        crews = {
            side: {**picked[role], "fighters": [int(pk) for pk in picked[role]["fighters"]]}
            for side, role in zip((Side.ATTACKER, Side.DEFENDER), roles, strict=True)
        }
    session = battle_start(
        gang_a=campaign_battle.attacker,
        gang_b=campaign_battle.defender,
        started_by=started_by,
        scenario=campaign_battle.scenario,
        scenario_name=campaign_battle.scenario_name,
        role_a=Role.ATTACKER if campaign_battle.has_roles else "",
        campaign_battle=campaign_battle,
        crews=crews,
        dice=dice,
    )
    # The crews the assistant picked, with their dice, are part of the campaign battle's record: its page, its
    # report and the campaign export read them there.
    missing = {
        role: session.crews[side]
        for side, role in zip((Side.ATTACKER, Side.DEFENDER), roles, strict=True)
        if not picked.get(role, {}).get("fighters") and (session.crews or {}).get(side)
    }
    if missing:
        campaign_battle.crews = {**picked, **missing}
        campaign_battle.save(update_fields=["crews"])
    return session

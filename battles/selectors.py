"""Reads for the battle pages: a battle with its gangs and players, its fighters, the log, the prompts and who
may act. Each page costs a fixed number of queries, whatever the number of fighters. And the reads the action
form and the end page make through the rulebook, writing nothing: an action's plan (the rulebook call it makes),
its odds, the next die the table is asked for, and the winner the scenario's facts propose. The services that
write an action (:mod:`battles.services.play`) plan it and count its odds with these very functions."""

from __future__ import annotations

import copy

from django.core.exceptions import ValidationError
from django.db.models import Q

from battles.models import BattleAction, BattleFighter, BattleSession, BattleStatus, Condition
from battles.rules import Plan, Prompt, edition_rules
from battles.rules.n18.scenarios import role_of
from campaigns.models import Side
from campaigns.permissions import can_see_campaign, visible_campaigns
from core.queries import Precompiled
from rulebook import budget, editions
from rulebook.dice import DiceNeeded, ScriptedDice, WrongFace
from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.query import Query

RECENT_ACTIONS = 12
# Actions after which the friends' tests for earlier casualties are moot: the game has moved on.
MOVES_ON = frozenset({"shoot", "fight", "multi-fight", "coup-de-grace", "scenario"})


def battle_get(pk: int) -> BattleSession:
    # The players are compared by their keys (can_view, can_act), never read: joining their rows too made this the
    # page's costliest query to plan.
    return BattleSession.objects.select_related("gang_a", "gang_b", "campaign_battle__campaign").get(pk=pk)


# What the battle's page reads of its gangs and campaign: the heading, the cache key (battles.views._page_key) and
# who may see and act (can_view, can_act). Their other columns (a campaign battle's rosters at confirmation among
# them) stay in the database: the page is read on every poll.
PAGE_RELATED = ("gang_a__name", "gang_a__version", "gang_b__name", "gang_b__version", "campaign_battle__campaign__name")


def battle_page_get(pk: int) -> BattleSession:
    """The battle as :func:`battle_get` reads it, with only what its page shows of the related rows: one query,
    compiled once (core.queries), as every poll of the page sends it."""
    found = _BATTLE_PAGE.objects(pk)
    if not found:
        raise BattleSession.DoesNotExist
    return found[0]


def _battle_page(pk: int):
    own = [field.attname for field in BattleSession._meta.concrete_fields]
    related = BattleSession.objects.select_related("gang_a", "gang_b", "campaign_battle__campaign")
    return related.only(*own, *PAGE_RELATED).filter(pk=pk).order_by()


_BATTLE_PAGE = Precompiled(_battle_page)


def battle_fighters(session: BattleSession) -> list[BattleFighter]:
    return list(session.fighters.select_related("taken_out_by", "seriously_injured_by"))


def battle_log(session: BattleSession, limit: int | None = RECENT_ACTIONS) -> list[BattleAction]:
    actions = session.actions.select_related("actor", "fighter", "target").defer("state_before", "query")
    return list(actions[:limit] if limit else actions)


# Actions that take no test, make no casualty and move nothing on (states set by hand, Move, a group's start, the
# phase's own end): no prompt reads them, so a phase of many need not read them all.
ANSWER_NO_PROMPT = ("adjust", "move", "group", "phase")


def phase_actions(session: BattleSession) -> list[BattleAction]:
    """The actions still standing in the current phase that answer or change a prompt."""
    standing = session.actions.filter(
        undone=False, round=session.round, turn_side=session.turn_side, phase=session.phase
    )
    return list(
        standing.exclude(kind__in=ANSWER_NO_PROMPT).only(
            # The session key too: the related manager links each action back to the session it came from.
            "session_id",
            "kind",
            "rule",
            "query",
            "side",
            "fighter_id",
            "casualties",
            "number",
            "result",
        )
    )


def battle_prompts(
    session: BattleSession, fighters: list[BattleFighter] | None = None, actions: list[BattleAction] | None = None
) -> list[Prompt]:
    """What the rules ask for now, from the fighters' states and the tests already taken this phase."""
    if session.is_over:
        return []
    fighters = fighters if fighters is not None else list(session.fighters.all())
    actions = actions if actions is not None else phase_actions(session)
    by_pk = {f.pk: f for f in fighters}
    taken = set()
    casualty_ids: list[int] = []
    # Oldest first: the friends' tests (Nerve, Leadership) are asked for the latest action's fresh casualties only;
    # once the game has moved on to another action they are moot.
    for action in sorted(actions, key=lambda a: a.number):
        if action.kind in MOVES_ON or action.casualties:
            casualty_ids = []
        if action.rule == "test":
            kind = action.query.get("kind")
            taken.add((kind, action.side if kind == "bottle" else action.fighter_id))
        elif action.rule == "blaze":
            taken.add((f"blaze_{action.query.get('step', 'activation')}", action.fighter_id))
        elif action.rule == "chem":
            taken.add((f"chem_{action.query.get('chem')}", action.fighter_id))
        elif action.kind == "reinforce":
            taken.add(("reinforce", action.side))
        casualty_ids += action.casualties
    casualties = [by_pk[pk] for pk in dict.fromkeys(casualty_ids) if pk in by_pk]
    out = edition_rules(session.edition).prompts(session, fighters, casualties, taken)
    shots = [a for a in actions if a.kind == "shoot" and not (a.query or {}).get("also_under")]
    if session.edition == "n18" and shots:
        from battles.rules.n18.queries import area_prompt

        # The latest shot's Blast marker or Flame template: who else is under it, asked until the next shot (each
        # fighter under it resolved from it in turn).
        area = area_prompt(max(shots, key=lambda a: a.number), by_pk)
        out += [area] if area else []
    return out


def last_target(session: BattleSession, fighter: BattleFighter, fighters: list[BattleFighter]) -> int | None:
    """The enemy this fighter last shot at or fought (else his gang's last target), if still in play: the
    target the assistant offers first. One query."""
    in_play = {f.pk for f in fighters if f.side != fighter.side and not f.out_of_action}
    recent = (
        session.actions.filter(undone=False, kind__in=("shoot", "fight"), fighter__side=fighter.side)
        .exclude(target=None)
        .values_list("fighter_id", "target_id")[:20]
    )
    recent = list(recent)
    for mine_only in (True, False):
        for by, target in recent:
            if (by == fighter.pk or not mine_only) and target in in_play:
                return target
    return None


def is_arbitrator(user, session: BattleSession) -> bool:
    campaign_battle = session.campaign_battle
    if campaign_battle is None:
        return False
    return campaign_battle.campaign.arbitrators.filter(user=user).exists()


def can_view(user, session: BattleSession) -> bool:
    """A friendly battle is open to anyone logged in (to follow at the table); a campaign battle, its page,
    log and report, only to its two players and those who may see the campaign (campaigns.permissions)."""
    if not user.is_authenticated:
        return False
    if session.campaign_battle_id is None or user.pk in (session.player_a_id, session.player_b_id):
        return True  # the two players keep their battle even after a gang leaves the campaign
    return can_see_campaign(user, session.campaign_battle.campaign_id)


def can_act(user, session: BattleSession) -> bool:
    """The two players act; so do the campaign's arbitrators for a campaign battle."""
    if not user.is_authenticated:
        return False
    return user.pk in (session.player_a_id, session.player_b_id) or is_arbitrator(user, session)


def battles_for_user(user) -> dict:
    """The user's own battles (in progress; ended, a queryset newest first for the list to read one page of)
    and others' battles in progress to watch (the latest 20)."""
    mine = Q(player_a=user) | Q(player_b=user)
    base = BattleSession.objects.select_related("gang_a", "gang_b")
    return {
        "playing": list(base.filter(mine, status=BattleStatus.IN_PROGRESS)),
        "ended": base.filter(mine, status=BattleStatus.ENDED).order_by("-created_at", "-pk"),
        "watch": list(
            base.exclude(mine)
            .filter(status=BattleStatus.IN_PROGRESS)
            .filter(
                Q(campaign_battle__isnull=True) | Q(campaign_battle__campaign__in=visible_campaigns(user).values("pk"))
            )[:20]
        ),
    }


def action_made(session: BattleSession, token: str) -> BattleAction | None:
    """The action a form's one-time token already made in this battle: a second tap on the same form gets the
    first answer rather than a second action. A service asks with the battle locked; a view may ask first, to
    answer a repeat without reading the form against a battle that has moved on."""
    return session.actions.filter(token=token).first() if token else None


# What the refusal calls a choice an action needs and was not given.
CHOICE_WORDS = {
    "fighter": "the fighter",
    "target": "who is hit (the target)",
    "weapon": "the weapon",
    "distance": "the range or distance",
    "test": "the test",
    "side": "the gang",
    "opponents": "the opponents",
    "action": "the scenario action",
}


class ActionChoices(dict):
    """An action's choices, from a form or a caller: one the edition's plan reads and nobody gave (a Blast
    prompt posted without naming anyone) is refused in words, never a server error."""

    def __missing__(self, name: str):
        raise ValidationError(f"Choose {CHOICE_WORDS.get(name, name)} first: this action needs it.", code="missing")


def _bind(params: dict, by_id: dict) -> ActionChoices:
    """Swap fighters given by the form (or by id) for the rows loaded in this transaction; a fighter left
    empty counts as not given."""
    bound = ActionChoices(params)
    for name in ("fighter", "target"):
        value = bound.pop(name, None)
        if value not in (None, ""):
            bound[name] = _row(by_id, value)
    for name in ("opponents", "split_to"):
        if name in bound:
            bound[name] = [_row(by_id, o) for o in bound[name]]
    return bound


def _row(by_id: dict, fighter) -> BattleFighter:
    row = by_id.get(getattr(fighter, "pk", fighter))
    if row is None:
        raise ValidationError("That fighter is not in this battle.")
    return row


def action_plan(
    *, session: BattleSession, kind: str, params: dict, fighters: list[BattleFighter] | None = None
) -> Plan:
    """The rulebook call an action makes, from the fighters as they stand (reads only)."""
    fighters = fighters if fighters is not None else list(session.fighters.all())
    params = _bind(params, {f.pk: f for f in fighters})
    rules = edition_rules(session.edition)
    if kind not in rules.KINDS:
        raise ValidationError(f"No {kind} action in this edition.")
    return rules.plan(kind, params, fighters, session)


# The most work a page's odds may do (rulebook.budget): about a second of one core here. Every fight of the
# fighters a gang can field is far below it; six opponents of ten Attack dice each against two swords is above.
ODDS_STEPS = 1_000_000


def action_odds(*, session: BattleSession, plan: Plan) -> dict:
    """The exact odds of the planned action: the answer ``python -m rulebook odds`` gives for its query. Odds
    that need more work than a page may do are left out with the reason; the action can still be rolled."""
    if not plan.rolls:
        return {}
    query = Query(copy.deepcopy(plan.query))
    try:
        with budget.bounded(ODDS_STEPS):
            answer = editions.action(session.edition, plan.rule).odds(query)
        query.refuse_unknown()  # the command line would refuse it too, so the odds would not be its answer
        return answer
    except budget.OverBudget:
        return {"why": [ODDS_TOO_LONG]}
    except RulesInputError as exc:
        raise ValidationError(f"The rulebook cannot answer this: {exc}") from None


ODDS_TOO_LONG = (
    "No odds for this one: so many Attack dice, hits and wounds would take the site too long to count exactly. "
    "Roll it here or at the table as usual (python -m rulebook odds can count it with time to spare)."
)


def charge_reach_odds(
    *, session: BattleSession, fighter: BattleFighter, distance: int, plan: Plan | None = None
) -> dict:
    """2018+: how often a Charge, the fighter's Movement plus D3", covers ``distance`` inches to the enemy: the
    answer ``python -m rulebook odds n18 charge`` gives for the same query (Movement D6" under Obscura). The fight's
    odds assume it arrives.
    With the fight's ``plan``, the weapons it uses set how close the charge must come (a Versatile weapon's reach)."""
    data = {"M": fighter.stats.get("M", 0), "distance": distance, "reach": _reach(plan)}
    if "obscura" in fighter.chems_working():
        data["movement_d6"] = True  # Obscura: Movement D6" while it lasts (rulebook.n18.kit)
    query = Query(data)
    try:
        answer = editions.action(session.edition, "charge").odds(query)
        query.refuse_unknown()
        return answer
    except RulesInputError as exc:
        raise ValidationError(f"The rulebook cannot answer this: {exc}") from None


def _reach(plan: Plan | None) -> int:
    """How far the fight's weapons reach (the shortest of them; 0 unarmed or in base contact)."""
    if plan is None or "weapon" not in plan.query:
        return 0
    reaches = []
    for field, profile in (("weapon", "profile"), ("second_weapon", "second_profile")):
        if field in plan.query:
            query = Query({"weapon": plan.query[field], "profile": plan.query.get(profile)})
            try:
                reaches.append(trading_post.reach(trading_post.read_profile(query)))
            except RulesInputError:
                return 0
    return min(reaches)


def action_next_die(*, session: BattleSession, plan: Plan, dice: list) -> DiceNeeded | None:
    """Which die the rules read next after the dice entered so far (None once they are enough); reads only.

    The roll is worked out on the entered dice and stops where they run out, so the table is asked for one die
    at a time, in the rules' own order, each named with what it is for. A die that cannot be right (a face its
    die does not have, or more dice than the action reads) is a ``ValidationError`` naming it.
    """
    if not plan.rolls:
        return None
    source = ScriptedDice(dice)
    try:
        editions.action(session.edition, plan.rule).roll(Query(copy.deepcopy(plan.query)), source)
    except DiceNeeded as needed:
        return needed
    except WrongFace as wrong:
        raise ValidationError(str(wrong), code="wrong_die", params={"index": wrong.index}) from None
    except RulesInputError as exc:
        raise ValidationError(str(exc)) from None
    if source.remaining:
        used = len(dice) - source.remaining
        raise ValidationError(
            f"Only {used} of the {len(dice)} dice entered are needed: die {used + 1} is one too many.",
            code="wrong_die",
            params={"index": used},
        )
    return None


def proposed_winner(session: BattleSession, fighters: list[BattleFighter]) -> tuple[str, str]:
    """The winner the scenario's facts decide (``rulebook.n18.campaign.victory``), as a side ("attacker",
    "defender" or "" for a draw) and why; ``(None, "")`` when the facts leave it to the players."""
    from rulebook.n18.campaign.victory import SideFacts, proposed_result

    if session.edition != "n18" or not session.scenario:
        return None, ""
    role = {side: role_of(session, side) for side in Side.values}
    facts = session.facts
    by_pk = {f.pk: f for f in fighters}
    caches = {"attacker": len(facts.get("caches_destroyed", [])), "defender": len(facts.get("caches_recovered", []))}
    fled = set(facts.get("fighters_fled", []))

    def credited(f: BattleFighter) -> BattleFighter | None:
        """Who took ``f`` Out of Action as the end of battle's record credits it (battles.services.end.
        battle_report), so the campaign's check of the result agrees: whoever took them Out of Action, or
        Seriously Injured them first; a fighter who fled is nobody's."""
        if not f.out_of_action or f.pk in fled:
            return None
        return by_pk.get(f.taken_out_by_id or f.seriously_injured_by_id)

    def side_facts(side: str) -> SideFacts:
        mine = [f for f in fighters if f.side == side]
        standing = sum(f.condition not in (Condition.OUT_OF_ACTION, Condition.SERIOUSLY_INJURED) for f in mine)
        taken = tuple(
            f.profile.get("category", "ganger") for f in fighters if getattr(credited(f), "side", None) == side
        )
        return SideFacts(
            standing=standing,
            fled=side in facts.get("fled", []),
            relic_defiled=side in facts.get("relics_defiled", {}),
            taken_out=taken,
            caches=caches[role[side]],
        )

    by_role = {role[side]: side_facts(side) for side in (Side.ATTACKER, Side.DEFENDER)}
    found = proposed_result(
        session.scenario,
        by_role.get("attacker", SideFacts()),
        by_role.get("defender", SideFacts()),
        caskets_opened=len(facts.get("caskets", [])),
    )
    if found is None:
        return None, ""
    side = next((s for s in (Side.ATTACKER, Side.DEFENDER) if role[s] == found.winner), "")
    return side, f"{found.why} ({found.source})"

"""Reads for the battle pages: a battle with its gangs and players, its fighters, the log, the prompts and who
may act. Each page costs a fixed number of queries, whatever the number of fighters."""

from __future__ import annotations

from django.db.models import Q

from battles.models import BattleAction, BattleFighter, BattleSession, BattleStatus
from battles.rules import Prompt, edition_rules
from campaigns.permissions import can_see_campaign, visible_campaigns

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
    """The battle as :func:`battle_get` reads it, with only what its page shows of the related rows."""
    own = [field.attname for field in BattleSession._meta.concrete_fields]
    related = BattleSession.objects.select_related("gang_a", "gang_b", "campaign_battle__campaign")
    return related.only(*own, *PAGE_RELATED).get(pk=pk)


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

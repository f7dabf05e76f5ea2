"""The end of a battle: the report the campaign's post-battle sequence takes over, and handing it to the campaign."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from battles.models import BattleAction, BattleFighter, BattleSession, BattleStatus, Condition
from battles.rules.n18.effects import WEBBED, WEBBED_OUT_OF_ACTION
from battles.rules.n18.scenarios import role_of
from battles.services.state import battle_state, locked, log_action
from campaigns.models import Side
from rulebook.dice import DiceSource, RandomDice

END_OUTCOMES = {
    Condition.OUT_OF_ACTION: "out_of_action",
    Condition.SERIOUSLY_INJURED: "seriously_injured",
    Condition.DOWN: "down",
}


def battle_report(session: BattleSession, fighters: list[BattleFighter], actions: list[BattleAction]) -> dict:
    """What the campaign's post-battle sequence needs: each fighter's end, by whom, bottle-outs, facts."""
    by_pk = {f.pk: f for f in fighters}
    awards: dict[int, dict] = {f.pk: {} for f in fighters}

    def award(fighter_pk, name, count=1):
        if fighter_pk in awards and count:
            awards[fighter_pk][name] = awards[fighter_pk].get(name, 0) + count

    for f in fighters:
        # The fighter the report names as taking them down: whoever put them Out of Action, or, when a Seriously
        # Injured fighter went Out of Action on their own Recovery test, whoever Seriously Injured them. The awards
        # follow the same fighter as the report's "by", so the record and the experience cannot disagree.
        by = f.taken_out_by_id or f.seriously_injured_by_id
        if f.out_of_action and by and f.pk not in session.facts.get("fighters_fled", []):
            award(by, "out_of_action")
            if f.profile.get("category") in ("leader", "champion"):
                award(by, "leader_or_champion_out_of_action")
    for action in actions:
        if action.undone or action.fighter_id is None:
            continue
        if action.rule == "test" and action.query.get("kind") == "rally" and action.result.get("passed"):
            award(action.fighter_id, "rallies")
        if session.edition == "classic":
            for fighter_pk, count in _wounding_hits(action):
                award(fighter_pk, "wounding_hits", count)
    for record in session.facts.get("relics_defiled", {}).values():
        award(record["fighter"], "relic_defiled")
    for name in ("caches_destroyed", "caches_recovered"):
        for record in session.facts.get(name, []):
            award(record["fighter"], name)

    fled = set(session.facts.get("fighters_fled", []))
    # Webbed at the end of the battle: they do not succumb to the sedative and recover by themselves (2023 core
    # rulebook, Conditions: Webbed), so no injury test after the battle although treated as Seriously Injured.
    webbed = set(session.facts.get(WEBBED, []))
    succumbed = set(session.facts.get(WEBBED_OUT_OF_ACTION, []))

    def outcome(f: BattleFighter) -> str:
        if f.pk in fled:
            return "fled"  # a failed Cool test: not Out of Action, so no Lasting Injury, nobody credited
        if f.pk in webbed and f.condition == Condition.SERIOUSLY_INJURED:
            return "ok"
        return END_OUTCOMES.get(f.condition, "ok")

    def end(f: BattleFighter) -> dict:
        by = by_pk.get(f.taken_out_by_id or f.seriously_injured_by_id)
        return {
            "fighter": f.fighter_id,
            "name": f.name,
            "side": f.side,
            "outcome": outcome(f),
            "by": by.fighter_id if by else None,
            "by_name": by.name if by else "",
            "flesh_wounds": f.flesh_wounds,
            "awards": awards[f.pk],
            # Out of Action to the web's sedative: the post-battle sequence rolls the Webbed D6, no Lasting Injury.
            "webbed": f.pk in succumbed and outcome(f) == "out_of_action",
        }

    return {
        "edition": session.edition,
        "scenario": session.scenario,
        "rounds": session.round,
        "sides": {
            side: {
                "gang": session.gang(side).pk,
                "name": session.gang(side).name,
                "role": session.role(side),
                "bottled_out": session.bottled(side),
                "fled": side in session.facts.get("fled", []),
                "starting_crew": session.starting_crew(side),
            }
            for side in (Side.ATTACKER, Side.DEFENDER)
        },
        "fighters": [end(f) for f in fighters],
        "facts": session.facts,
        "actions": sum(not a.undone for a in actions),
    }


def _wounding_hits(action: BattleAction) -> list[tuple[int, int]]:
    """Classic: the wounding hits an action scored, by fighter in play: hits that wounded and were not saved by
    armour (each earns +5 experience after the battle, :mod:`rulebook.classic.campaign.experience`). A shot's
    are in its steps (a "wound" step, then a "save" unless there is none); a fight's are the winner's hits that
    did more than fail to wound. A multiple combat's bouts are left to the report form."""
    result = action.result or {}
    if action.rule == "shoot":
        steps, count = result.get("steps", []), 0
        for index, step in enumerate(steps):
            if step.get("step") == "wound" and step.get("result") == "wounded":
                after = steps[index + 1] if index + 1 < len(steps) else {}
                count += not (after.get("step") == "save" and after.get("result") == "saved")
        return [(action.fighter_id, count)]
    if action.rule == "fight" and result.get("winner") in ("attacker", "defender"):
        winner = action.fighter_id if result["winner"] == "attacker" else action.target_id
        hits = (result.get("wounds") or {}).get("hits", [])
        return [(winner, sum(hit.get("outcome") not in ("no_wound", "saved") for hit in hits))]
    return []


@transaction.atomic
def battle_end(
    *,
    session: BattleSession,
    actor,
    winner: str = "",
    notes: str = "",
    captured=(),
    captives_freed=(),
    freed_by=None,
    dice: DiceSource | None = None,
) -> BattleSession:
    """End the battle: write the report (and hand it to the campaign's post-battle sequence, if any).

    ``captured``: the (gang) fighter ids taken captive by the other gang; ``captives_freed``: in a campaign's
    Rescue Mission, the captives freed, and ``freed_by`` the fighter who freed each (captive id -> fighter id;
    a captive freed by no fighter is not in it). The campaign checks them as part of the battle's record."""
    session, fighters = locked(session)
    if winner not in ("", Side.ATTACKER, Side.DEFENDER):
        raise ValidationError("The winner is one of the two gangs, or nobody (a draw).")
    dice = dice or RandomDice()
    left_to_attacker = _caskets_left_to_the_attacker(session, dice) + _relic_of_the_gang_that_fled(
        session, fighters, dice
    )
    report = battle_report(session, fighters, list(session.actions.all()))
    captured = set(captured)
    for row in report["fighters"]:
        row["captured"] = row["fighter"] in captured
    report.update(winner=winner or None, draw=not winner, notes=notes, captives_freed=sorted(set(captives_freed)))
    if freed_by:
        report["freed_by"] = {str(captive): freer for captive, freer in freed_by.items()}
    before = battle_state(session, fighters)
    session.report = report
    session.status = BattleStatus.ENDED
    session.ended_at = timezone.now()
    session.version += 1
    session.save(update_fields=["report", "facts", "status", "ended_at", "version", "updated_at"])
    changes = [*left_to_attacker, "Battle report written"]
    if session.campaign_battle_id:
        _campaign_report_submit(session, report, actor)
        changes.append("Report sent to the campaign for confirmation")
    log_action(session, before, actor, kind="end", summary="The battle ends", changes=changes)
    return session


def _caskets_left_to_the_attacker(session: BattleSession, dice: DiceSource) -> list[str]:
    """Smash & Grab: when the defender bottled out and fled, the attacker rolls for each loot casket still
    unopened, a Booby Trapped result doing nothing (the guide's Smash & Grab, Ending the Battle). The dice
    and what each casket held go into the battle's facts, and so into the campaign's record."""
    from rulebook.n18.campaign.battlefield import open_loot_casket
    from rulebook.n18.campaign.record import casket_rules

    if session.edition != "n18" or session.scenario != "smash-and-grab":
        return []
    role = {side: role_of(session, side) for side in Side.values}
    fled = [side for side in session.facts.get("fled", []) if role[side] == "defender"]
    attacker = next(side for side in (Side.ATTACKER, Side.DEFENDER) if role[side] == "attacker")
    caskets = list(session.facts.get("caskets", []))
    if not fled or attacker in session.facts.get("fled", []):
        return []
    words = []
    for _ in range(casket_rules(session.scenario).count - len(caskets)):
        mark = len(dice.rolls)
        found = open_loot_casket(dice, smash_and_grab=True, ignore_booby_trap=True)
        caskets.append(
            {
                "side": attacker,
                "fighter": None,
                "result": found["result"],
                "credits": found["credits_gained"],
                "left_behind": True,
                "dice": [r.as_json() for r in dice.rolls[mark:]],
            }
        )
        words.append(
            f"A casket left behind, rolled for {session.gang(attacker).name}: {found['result']}"
            + (f", {found['credits_gained']} credits" if found["credits_gained"] else "")
        )
    session.facts = {**session.facts, "caskets": caskets}
    return words


def _relic_of_the_gang_that_fled(session: BattleSession, fighters: list[BattleFighter], dice: DiceSource) -> list[str]:
    """Border Dispute: when one gang bottled out and fled and its relic was not defiled, a random fighter of the
    other gang counts as having defiled it (the guide's Border Dispute, Ending the Battle)."""
    from rulebook.roster import pick_index

    fled = session.facts.get("fled", [])
    if session.edition != "n18" or session.scenario != "border-dispute" or len(fled) != 1:
        return []
    loser = fled[0]
    defiled = dict(session.facts.get("relics_defiled", {}))
    winners = [f for f in fighters if f.side != loser]
    if loser in defiled or not winners:
        return []
    fighter = winners[
        pick_index(len(winners), dice, f"Border Dispute: the fighter who defiles {session.gang(loser).name}'s relic")
    ]
    defiled[loser] = {"fighter": fighter.pk, "name": fighter.name, "dice": [r.as_json() for r in dice.rolls[-2:]]}
    session.facts = {**session.facts, "relics_defiled": defiled}
    return [f"{session.gang(loser).name} fled: {fighter.name} counts as having defiled their relic"]


# The campaign's post-battle sequence reads "seriously_injured" as the classic fighter down at the end.
CAMPAIGN_OUTCOMES = {
    "ok": "ok",
    "down": "seriously_injured",
    "seriously_injured": "seriously_injured",
    "out_of_action": "out_of_action",
    "fled": "fled",
}


def campaign_facts(session: BattleSession) -> dict:
    """The scenario facts in the campaign's words (roles rather than sides; the roster's fighter ids)."""
    role = {side: role_of(session, side) for side in Side.values}
    facts = session.facts
    fighter_of = dict(session.fighters.values_list("pk", "fighter_id"))
    caskets = [
        {
            "side": role[c["side"]],
            "fighter": str(fighter_of[c["fighter"]]) if fighter_of.get(c["fighter"]) else None,
            "result": c.get("result") or "",
            "credits": c.get("credits", 0),
        }
        for c in facts.get("caskets", [])
    ]
    out = {"caskets_opened": len(caskets), "caskets": caskets}
    # The fighters who came on after the starting crew: the assistant brings them in only as Reinforcements
    # (battle_reinforce); the campaign's record checks the scenario has them for that side.
    reinforcements = [
        f.fighter_id
        for f in session.fighters.order_by("side", "order")
        if f.fighter_id and session.starting_crew(f.side) and f.order >= session.starting_crew(f.side)
    ]
    if reinforcements:
        out["reinforcements"] = reinforcements
    for name in ("caches_destroyed", "caches_recovered"):
        if facts.get(name):
            out[name] = len(facts[name])
    if session.scenario == "border-dispute" or facts.get("relics_defiled"):
        defiled = facts.get("relics_defiled", {})
        out["relic_defiled"] = {role[side]: side in defiled for side in (Side.ATTACKER, Side.DEFENDER)}
    return out


def _campaign_report_submit(session: BattleSession, report: dict, actor) -> None:
    from campaigns.services import battle_report_submit

    campaign_battle = session.campaign_battle
    winner = {Side.ATTACKER: session.gang_a, Side.DEFENDER: session.gang_b}.get(report["winner"] or "")
    results = [
        {
            "fighter": f["fighter"],
            "outcome": CAMPAIGN_OUTCOMES[f["outcome"]],
            "caused_by": f["by"] if f["outcome"] not in ("ok", "fled") else None,
            "captured": f.get("captured", False),
            "webbed": f.get("webbed", False),
            "awards": f["awards"],
        }
        for f in report["fighters"]
        if f["fighter"] is not None
    ]
    # The session's sides are the campaign battle's (its attacker is the first gang): the same codes, no mapping.
    bottled = {side: report["sides"][side]["bottled_out"] for side in Side.values}
    fled = {side: report["sides"][side]["fled"] for side in Side.values}
    battle_report_submit(
        battle=campaign_battle,
        actor=actor,
        winner=winner,
        is_draw=winner is None,
        attacker_bottled=bottled[Side.ATTACKER],
        defender_bottled=bottled[Side.DEFENDER],
        attacker_fled=fled[Side.ATTACKER],
        defender_fled=fled[Side.DEFENDER],
        fighter_results=results,
        scenario_facts=campaign_facts(session),
        captives_freed=report.get("captives_freed", ()),
        freed_by={int(captive): int(freer) for captive, freer in (report.get("freed_by") or {}).items()},
        notes=report.get("notes", ""),
    )

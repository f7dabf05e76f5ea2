"""The 2018+ post-battle sequence, as the club campaign guide's Post-Battle Sequence gives it
(``rulebook.n18.campaign``): Prone and Seriously Injured test, Lasting Injuries, scenario rewards and
the standard experience, income and the Home Settlement, post-battle actions (Medical Escort and the
others), update roster.
"""

from __future__ import annotations

from dataclasses import replace

from postbattle.engine.base import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Context,
    Field,
    Step,
    StepOutcome,
    by_attack,
    house_income,
    injure,
    injury_effects,
    recruit_name,
    roster_step,
    since,
    taken_down,
)
from postbattle.engine.territories import collect_territory, territory_fields
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18 import kit
from rulebook.n18.campaign import battle_rewards
from rulebook.n18.campaign.lasting_injury import (
    CAPTURED,
    CONVALESCENCE,
    CRITICAL_INJURY,
    DEAD,
    LASTING_INJURY_RULES,
    RECOVERY,
    WEBBED_SOURCE,
    roll_webbed,
)
from rulebook.n18.campaign.post_battle import (
    ADDICTIVE,
    GUIDE,
    HOME_SETTLEMENT,
    MEDICAL_ESCORT,
    POST_BATTLE_INJURY,
    addiction_check,
    apply_medical_escort,
    ghast_willpower_test,
    icrotic_slime_removal,
    old_battle_wound_check,
    post_battle_action_eligibility,
    post_battle_injury_test,
    roll_home_settlement,
    stinger_mould,
    untreated_critical_injury,
)
from rulebook.n18.campaign.record import casket_words
from rulebook.n18.campaign.scenarios import Reward, roll_reward
from rulebook.n18.campaign.trading import trade_roll

# --- 2018+ steps -------------------------------------------------------------------------------------------


def _n18_injury_tests(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    rule = "Prone & Seriously Injured"
    for fid in taken_down(ctx, SERIOUSLY_INJURED):
        mark = len(dice.rolls)
        test, injury = post_battle_injury_test(out.fighters[fid], dice, caused_by_attack_action=by_attack(ctx, fid))
        out.line(rule, f"injury test {test['roll']}: {test['result']}", since(dice, mark)[:1], ctx.name(fid))
        injury_effects(ctx, out, fid, injury, "Lasting Injury")
        out.fighters[fid] = injury.fighter
    if not out.lines:
        out.line(rule, "No fighter ended the battle Prone or Seriously Injured.")
    _old_battle_wounds(ctx, out, dice)
    _chem_side_effects(ctx, out, dice)
    return out


def _chem_side_effects(ctx: Context, out: StepOutcome, dice: DiceSource) -> None:
    """The side effects of the chems a fighter took before the battle that are settled once it is over
    (``rulebook.n18.campaign.post_battle``), rolled here once with the step's dice: Ghast's Willpower test (Willpower
    worse, or Insane for good, recorded as a mark on the fighter), Icrotic Slime's 2D6 (dead, Into Recovery, or a
    Lasting Injury), and the Toughness check of an addictive chem ('Slaught, Frenzon, Obscura), whose addiction the
    roster does not keep: said with its die for the player to note."""
    for fid, chems in ctx.chems_taken.items():
        result = ctx.results.get(fid)
        if fid not in out.fighters or (result is not None and result.killed):
            continue
        for slug, name in chems.items():
            if slug == "ghast":
                injure(ctx, out, out.fighters, fid, "Chems", lambda f: ghast_willpower_test(f, dice))
            elif slug == "icrotic-slime":
                injure(ctx, out, out.fighters, fid, "Chems", lambda f: icrotic_slime_removal(f, dice))
            elif slug in ADDICTIVE:
                addicted, rolled = addiction_check(slug, out.fighters[fid], dice)
                text = f"{name}: Toughness check {'failed: addicted' if addicted else 'passed: not addicted'}"
                if addicted:
                    text += f" ({kit.CHEMS[slug].side_effect}; the roster keeps no addiction: note it)"
                out.line("Chems", text, rolled, ctx.name(fid))


def _old_battle_wounds(ctx: Context, out: StepOutcome, dice: DiceSource) -> None:
    """Old Battle Wound (2018+ Lasting Injury table): after each battle a fighter carrying one took part in, a D6;
    on a 1 the fighter goes into Convalescence (``rulebook.n18.campaign.post_battle.old_battle_wound_check``). A
    fighter killed in the battle rolls nothing."""
    for fid in ctx.results:
        if fid not in out.fighters or ctx.results[fid].killed or not out.fighters[fid].has_injury("old-battle-wound"):
            continue
        wound = old_battle_wound_check(out.fighters[fid], dice)
        injury_effects(ctx, out, fid, wound, "Old Battle Wound")
        out.fighters[fid] = wound.fighter


STINGER_MOULD = "stinger-mould"


def _n18_lasting_injuries(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    # The gang's doses of Stinger Mould (its fighters' and the Stash's): each ticked fighter's roll, but a Memorable
    # Death, uses one while any is left (``rulebook.n18.campaign.post_battle.stinger_mould``).
    mould_left = ctx.chems_held.get(STINGER_MOULD, 0)
    for fid in taken_down(ctx, OUT_OF_ACTION):
        if ctx.results[fid].captured:
            # The report says they were taken captive: that is their Lasting Injury's result already (Captured),
            # so no other is rolled; the captor is the opposing gang (rulebook.n18.campaign.record).
            text = f"captured during the battle: held by {ctx.opponent_name} (no Lasting Injury roll)"
            _captive(ctx, out, fid, text, "Captured during the battle (battle report)", [])
            continue
        if ctx.results[fid].killed:
            # Killed during the battle: dead already, with no Lasting Injury to roll.
            out.line("Lasting Injury", "killed during the battle: dead (no Lasting Injury roll)", (), ctx.name(fid))
            out.effect(
                "status",
                fighter=fid,
                status=DEAD,
                captured_by=None,
                reason="Killed during the battle (battle report)",
                dice=[],
            )
            out.fighters[fid] = replace(out.fighters[fid], status=DEAD)
            continue
        if ctx.results[fid].webbed:
            _webbed(ctx, out, fid, dice)
            continue
        before = out.fighters[fid]
        injury = LASTING_INJURY_RULES.roll(before, dice, caused_by_attack_action=by_attack(ctx, fid))
        mould = stinger_mould(before, injury) if choices.get(f"stinger_{fid}") and mould_left else None
        if mould is not None:
            mould_left -= 1
            injury = mould
            reason = f"Lasting Injury: {mould.changes[0].why}"
            out.effect("chem", fighter=fid, chem=STINGER_MOULD, reason=reason, dice=list(mould.changes[0].dice))
        injury_effects(ctx, out, fid, injury, "Lasting Injury")
        out.fighters[fid] = injury.fighter
    if not out.lines:
        out.line("Lasting Injury", "No fighter went Out of Action.")
    return out


def _captive(ctx: Context, out: StepOutcome, fid: str, text: str, reason: str, dice: list[dict]) -> None:
    """The fighter becomes a captive of the opposing gang (a capture the report records, or the Webbed D6's)."""
    out.line("Lasting Injury", text, dice, ctx.name(fid))
    out.effect("status", fighter=fid, status=CAPTURED, captured_by=ctx.opponent_id, reason=reason, dice=dice)
    out.fighters[fid] = replace(out.fighters[fid], status=CAPTURED)


def _n18_lasting_injury_fields(ctx: Context, fighters: dict) -> list[Field]:
    """While the gang holds a dose of Stinger Mould: for each fighter who rolls a Lasting Injury, whether to use one on
    the roll (going back to tick it after seeing the roll keeps its dice)."""
    if not ctx.chems_held.get(STINGER_MOULD):
        return []
    return [
        Field(
            f"stinger_{fid}",
            f"{ctx.name(fid)}: use a dose of Stinger Mould on the roll (any result but Memorable Death becomes Out Cold)",
            "checkbox",
            initial=False,
        )
        for fid in _rolls_lasting_injury(ctx)
    ]


def _rolls_lasting_injury(ctx: Context) -> list[str]:
    """The fighters taken Out of Action who roll on the Lasting Injury table (not captured, killed or Webbed)."""
    return [
        fid
        for fid in taken_down(ctx, OUT_OF_ACTION)
        if not (ctx.results[fid].captured or ctx.results[fid].killed or ctx.results[fid].webbed)
    ]


def _webbed(ctx: Context, out: StepOutcome, fid: str, dice: DiceSource) -> None:
    """Out of Action to the web's sedative: the Webbed D6 instead of a Lasting Injury (``roll_webbed``)."""
    mark = len(dice.rolls)
    webbed = roll_webbed(dice)
    rolled = since(dice, mark)
    if webbed.result == CAPTURED:
        text = f"Webbed when taken Out of Action: D6 {webbed.roll}, Captured: held by {ctx.opponent_name}"
        _captive(ctx, out, fid, text, f"Webbed D6 {webbed.roll}: Captured ({WEBBED_SOURCE})", rolled)
    else:
        text = f"Webbed when taken Out of Action: D6 {webbed.roll}, Out Cold (no lasting harm)"
        out.line("Lasting Injury", text, rolled, ctx.name(fid))


def _reward_text(reward: Reward, rolled: dict) -> str:
    per = f" x{rolled['times']} ({reward.per})" if reward.per else ""
    # Conditions read as asides ("whether or not they took part", "the battle is a draw"), not all as "if" clauses.
    cond = f" ({reward.condition})" if reward.condition else ""
    return f"{reward.kind} for {reward.recipient}{cond}: {reward.amount}{per} = {rolled['total']:+d}"


def _n18_rewards(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    awards = {fid: counts for fid, counts in ctx.awards.items() if fid in ctx.fighters}
    for due in battle_rewards.rewards_due(ctx.scenario, ctx.result, awards, leader=ctx.leader):
        rolled = roll_reward(due.reward, dice, times=due.times)
        text, rule = _reward_text(due.reward, rolled), f"{ctx.scenario_name} rewards"
        out.line(rule, text, rolled["dice"], ctx.name(due.fighter) if due.fighter else "")
        if not rolled["total"]:
            continue
        if due.reward.kind == "experience":
            out.effect(
                "xp", fighter=due.fighter, amount=rolled["total"], reason=f"{text} ({due.source})", dice=rolled["dice"]
            )
            snap = out.fighters.get(due.fighter)
            if snap is not None:
                out.fighters[due.fighter] = replace(snap, xp=snap.xp + rolled["total"])
        else:
            out.effect(due.reward.kind, amount=rolled["total"], reason=f"{text} ({due.source})", dice=rolled["dice"])
    for casket in ctx.caskets:
        # Whatever a casket held is the gang's whose fighter opened it (the guide's Opening Loot Caskets).
        opener = f"{ctx.name(casket.fighter)} opened" if casket.fighter else "Opened"
        text = f"{opener} a loot casket: {casket_words(casket, ctx.scenario)}"
        if casket.left_behind:
            text = f"A loot casket {casket_words(casket, ctx.scenario)}"
        out.line("Loot caskets", text, (), ctx.name(casket.fighter) if casket.fighter else "")
        if casket.credits:
            out.effect(
                "credits", amount=casket.credits, reason=f"Loot casket: {casket_words(casket, ctx.scenario)}", dice=[]
            )
    if not out.lines:
        out.line(f"{ctx.scenario_name} rewards", "Nothing is owed to this gang.")
    return out


def _n18_income(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for territory in ctx.territories:
        mark = len(dice.rolls)
        if territory.is_home_settlement:
            home = roll_home_settlement(dice, recruit=bool(choices.get("recruit")))
            credits = home["income"]
            out.line(
                "Home Settlement",
                f"income {HOME_SETTLEMENT['income']} = {credits} credits; +1 Reputation "
                "while held (counted since the gang joined the campaign)",
                since(dice, mark)[:1],
            )
            if home["recruit"]:
                recruit = home["recruit"]
                out.line(
                    "Home Settlement: Recruit",
                    f"two D6 rolled {recruit['roll'] // 10} and {recruit['roll'] % 10}: {recruit['result']}",
                    since(dice, mark)[1:],
                )
                if recruit["recruit"]:
                    name = recruit_name(ctx, out, choices.get("recruit_name"), recruit["recruit"])
                    out.effect(
                        "recruit",
                        category=recruit["recruit"].lower(),
                        name=name,
                        reason=f"Home Settlement recruit ({recruit['roll']})",
                        dice=since(dice, mark)[1:],
                    )
        else:
            collect_territory(ctx, out, territory, dice, choices)
            continue
        if credits:
            out.effect(
                "credits", amount=credits, reason=f"Collect Income: {territory.name}", dice=since(dice, mark)[:1]
            )
    if not ctx.territories:
        out.line("Collect Income", "The gang holds no territory.")
    return house_income(ctx, out)


def _n18_income_fields(ctx: Context, fighters: dict) -> list[Field]:
    home = []
    if any(t.is_home_settlement for t in ctx.territories):
        home = [
            Field("recruit", "Roll two D6 for a free recruit (Home Settlement)", "checkbox", initial=True),
            Field(
                "recruit_name", "Name for a recruit, if one comes (left empty: Juve 1, Ganger 1...)", "text", initial=""
            ),
        ]
    return home + territory_fields(ctx)


def may_act(ctx: Context, fighters: dict) -> list[str]:
    """Fighters who may take a post-battle action (Gang Hierarchy, not in Recovery or Captured)."""
    return [
        fid
        for fid, info in ctx.fighters.items()
        if fid in fighters and post_battle_action_eligibility(fighters[fid], gang_hierarchy=info.hierarchy)["may_act"]
    ]


def _patients(fighters: dict) -> list[str]:
    return [fid for fid, snap in fighters.items() if snap.status == CRITICAL_INJURY]


def _n18_action_dice(ctx: Context, fighters: dict) -> str:
    if not may_act(ctx, fighters):  # say so, rather than show a form with nothing to choose
        return "None: no fighter with Gang Hierarchy is free to take an action after this battle."
    return "D6 for each Medical Escort (and a Lasting Injury roll on 2-5); 2D6 for each Trade seeking Rare items."


def _n18_action_fields(ctx: Context, fighters: dict) -> list[Field]:
    """One action per fighter who may act; the first ones default to escorting each patient to the Doc."""
    actions = tuple((a, a) for a in battle_rewards.ACTION_EFFECTS)
    patients = _patients(fighters)
    targets = [("", "—")]
    targets += [(f"patient:{fid}", f"Doc for {ctx.name(fid)}") for fid in patients]
    targets += [(f"captive:{fid}", f"Captive {ctx.name(fid)}") for fid in ctx.captives]
    out = []
    for n, fid in enumerate(may_act(ctx, fighters)):
        name, escort = ctx.name(fid), n < len(patients)
        out += [
            Field(f"action_{fid}", f"{name}: action", "select", actions, "Medical Escort" if escort else "Trade"),
            Field(
                f"target_{fid}",
                f"{name}: for whom",
                "select",
                tuple(targets),
                f"patient:{patients[n]}" if escort else "",
            ),
            Field(
                f"seek_{fid}",
                f"{name}: if trading, seek Rare and Illegal items (2D6 for the Availability Level)",
                "checkbox",
                initial=False,
            ),
        ]
    return out


def _trade(out: StepOutcome, dice: DiceSource, name: str, rule: str, nth: int, kit=()) -> None:
    """The Trade action: 2D6 for the Availability Level (``rulebook.n18.campaign.trading``). The die's purpose is
    the n-th trader's, not the fighter's: going back to send another fighter re-uses the dice (every die final)."""
    mark = len(dice.rolls)
    rolled = trade_roll(dice, who=f"trader {nth}", kit=kit)
    furs = " + 1 (Exotic Furs)" if rolled["exotic_furs"] else ""
    out.line(
        rule,
        f"{name} visits the Trading Post: Availability Level {rolled['roll'][0]} + {rolled['roll'][1]}{furs} = "
        f"{rolled['level']}; until its next battle the gang may buy Rare and Illegal items up to "
        f"{rolled['level']}",
        since(dice, mark),
        name,
    )
    out.effect("trade", level=rolled["level"], reason=f"{rule}: {name} ({rolled['source']})", dice=since(dice, mark))


def _n18_actions(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    treated, disposed, traded = set(), set(), 0
    for fid in may_act(ctx, fighters):
        action = choices.get(f"action_{fid}") or "Trade"
        kind, _, target = (choices.get(f"target_{fid}") or "").partition(":")
        name, rule = ctx.name(fid), f"Post-battle action: {action}"
        effect = battle_rewards.ACTION_EFFECTS.get(action)
        if effect is None:
            raise RulesInputError(f"action_{fid}", f"unknown post-battle action {action!r}")
        if effect["needs"] == "patient":
            if kind != "patient" or target not in _patients(out.fighters) or target in treated:
                raise RulesInputError(f"target_{fid}", f"{name}: choose a fighter with a Critical Injury to escort")
            treated.add(target)
            mark = len(dice.rolls)
            # One purpose for every escort's die, whoever the patient: going back to escort another fighter
            # re-uses the die already rolled (every die final), the account line says who it was for.
            face = dice.d6("Medical Escort")
            row = MEDICAL_ESCORT.lookup(face)
            out.line(
                rule, f"{name} escorts {ctx.name(target)} to the Doc: {face} {row['result']}", since(dice, mark), name
            )
            treated_by_doc = apply_medical_escort(out.fighters[target], face, dice)
            # The rulebook lists the Doc's settling of the Critical Injury first; the account tells it last.
            changes = (*treated_by_doc.changes[1:], treated_by_doc.changes[0])
            injury_effects(ctx, out, target, replace(treated_by_doc, changes=changes), "Medical Escort")
            out.fighters[target] = treated_by_doc.fighter
        elif effect["needs"] == "captive":
            if kind != "captive" or target not in ctx.captives or target in disposed:
                raise RulesInputError(f"target_{fid}", f"{name}: choose a captive the gang holds")
            disposed.add(target)
            captive = ctx.captives[target]
            out.line(rule, f"{name}: {effect['effect']} — {captive.name}", (), name)
            out.effect(
                "status",
                fighter=target,
                status=DEAD,
                captured_by=None,
                captive=True,
                reason=f"{rule} ({battle_rewards.ACTION_SOURCE})",
                dice=[],
            )
            price = battle_rewards.captive_price(action, captive.value)
            if price:
                share = "half of" if action == "Sell to Guilders" else "the bounty: all of"
                out.effect("credits", amount=price, reason=f"{rule}: {captive.name} ({share} {captive.value})", dice=[])
        elif action == "Trade" and choices.get(f"seek_{fid}"):
            traded += 1
            _trade(out, dice, name, rule, traded, ctx.fighters[fid].kit if fid in ctx.fighters else ())
        else:
            out.line(rule, f"{name} {effect['effect']}", (), name)
    for fid in _patients(out.fighters):
        injure(ctx, out, out.fighters, fid, "Critical Injury", untreated_critical_injury)
    if not out.lines:
        out.line("Post Battle Actions", "No fighter may take a post-battle action.")
    return out


def _count_dice(ctx: Context, outcome: str, text: str) -> str:
    count = len(taken_down(ctx, outcome))
    return f"{text} for each of {count} fighter(s)" if count else "No dice."


def _webbed_dice(ctx: Context) -> str:
    count = sum(1 for fid in taken_down(ctx, OUT_OF_ACTION) if ctx.results[fid].webbed)
    return f" Of them, {count} Webbed when taken Out of Action roll(s) one D6 instead." if count else ""


def _old_wound_dice(ctx: Context, fighters: dict) -> str:
    count = sum(1 for fid in ctx.results if fid in fighters and fighters[fid].has_injury("old-battle-wound"))
    return f" Then a D6 for each of {count} fighter(s) with an Old Battle Wound." if count else ""


def _chem_dice(ctx: Context, fighters: dict) -> str:
    """The dice the chems taken before the battle ask for after it, in the order they are rolled."""
    words = {"ghast": "2D6 (Ghast)", "icrotic-slime": "2D6 (Icrotic Slime; a D66 and more on a 12)"}
    wanted = [
        words.get(slug, f"a D6 ({name})")
        for fid, chems in ctx.chems_taken.items()
        if fid in fighters and not (fid in ctx.results and ctx.results[fid].killed)
        for slug, name in chems.items()
        if slug in words or slug in ADDICTIVE
    ]
    return f" Then the chems: {', '.join(wanted)}." if wanted else ""


def _n18_roster(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    """Update Roster. Seed note 5: a fighter in Recovery or Convalescence misses the next battle; one who
    was in it before this battle and did not fight has now missed it, and is back."""
    out = StepOutcome(fighters=dict(fighters))
    for fid, snap in fighters.items():
        if fid in ctx.fighters and fid not in ctx.results and snap.status in (RECOVERY, CONVALESCENCE):
            reason = f"Update Roster: missed this battle in {snap.status}, back for the next (seed note 5)"
            out.line("Update Roster", f"{ctx.name(fid)}: {snap.status} → active (missed this battle)")
            out.effect("status", fighter=fid, status="active", captured_by=None, reason=reason, dice=[])
            out.fighters[fid] = replace(snap, status="active")
    rest = roster_step(ctx, out.fighters, dice, choices)
    return StepOutcome(out.lines + rest.lines, out.effects + rest.effects, rest.fighters)


N18_STEPS = (
    Step(
        "injury-tests",
        "Prone & Seriously Injured",
        "A fighter who ended the battle Prone and Seriously Injured tests: on a 3+ they survive; on 1-2 they roll on "
        "the Lasting Injury table. Then each fighter with an Old Battle Wound who took part rolls a D6: on a 1 they "
        "go into Convalescence. Then the chems taken before the battle: Ghast's Willpower test, Icrotic Slime's 2D6 "
        "and the Toughness check of 'Slaught, Frenzon and Obscura.",
        POST_BATTLE_INJURY.source,
        lambda ctx, f: (
            _count_dice(ctx, SERIOUSLY_INJURED, "D6 (then D66 and any further dice on a 1-2)")
            + _old_wound_dice(ctx, f)
            + _chem_dice(ctx, f)
        ),
        _n18_injury_tests,
    ),
    Step(
        "lasting-injuries",
        "Lasting Injuries",
        "Each fighter taken Out of Action rolls on the Lasting Injury table (D66: tens die, then units die); every "
        "result is applied to the roster. Multiple Injuries rolls D3 more times, re-rolling Captured, Multiple "
        "Injuries, Memorable Death, Critical Injury and Out Cold. A fighter Webbed when taken Out of Action rolls "
        "a D6 instead: 1-4 Out Cold, 5-6 Captured by the opposing gang. A dose of Stinger Mould the gang holds may "
        "be used on a roll: any result but Memorable Death becomes Out Cold.",
        LASTING_INJURY_RULES.table.source,
        lambda ctx, f: (
            _count_dice(ctx, OUT_OF_ACTION, "D66 (tens then units) and any further dice") + _webbed_dice(ctx)
        ),
        _n18_lasting_injuries,
        _n18_lasting_injury_fields,
    ),
    Step(
        "rewards",
        "Scenario rewards and experience",
        "The scenario's credits, experience and Reputation, each with its dice, and the standard experience: +1 for "
        "each enemy the fighter took Out of Action, +1 more for a Leader or Champion, +1 for a kill, +1 for a Rally.",
        battle_rewards.STANDARD_AWARDS_SOURCE,
        lambda ctx, f: "The dice each reward names (D3, D6x10 ...), in the order listed.",
        _n18_rewards,
    ),
    Step(
        "income",
        "Collect Income and Home Settlement",
        "Each Territory's income; the Home Settlement gives D6x10 credits and +1 Reputation while held, and two D6 "
        "for a free recruit: a 6 on either die a Juve, a 6 on both a Ganger.",
        HOME_SETTLEMENT["sources"][0],
        lambda ctx, f: "The dice of each territory's income, then two D6 for the recruit.",
        _n18_income,
        _n18_income_fields,
    ),
    Step(
        "actions",
        "Post-battle actions",
        "Each fighter with Gang Hierarchy who is not in Recovery or Captured takes one action. A Critical Injury "
        "not taken to the Doc by a Medical Escort dies.",
        battle_rewards.ACTION_SOURCE,
        _n18_action_dice,
        _n18_actions,
        _n18_action_fields,
    ),
    Step(
        "roster",
        "Update roster",
        "Fighters who missed this battle in Recovery or Convalescence come back; dead "
        "fighters leave the active roster and stay in the history; then the gang hires and buys as usual.",
        f"{GUIDE}, Update Roster; seed note 5",
        lambda ctx, f: "No dice.",
        _n18_roster,
    ),
)

"""Collect Income from the territories other than the Home Settlement (2018+): each one's boon as
``rulebook.n18.campaign.territories`` gives it (who collects, the income, a double's consequence, the recruit
roll of a Settlement), turned into account lines and effects. The Home Settlement stays in :mod:`.n18`.
"""

from __future__ import annotations

from dataclasses import replace

from postbattle.engine.base import Context, Field, StepOutcome, TerritoryInfo, injure, recruit_name, since
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign import territories as rules
from rulebook.n18.campaign.lasting_injury import CAPTURED, DEAD, LASTING_INJURY_RULES, RECOVERY
from rulebook.n18.campaign.post_battle import recruit_table
from rulebook.roster import roll_amount


def _boon(ctx: Context, territory: TerritoryInfo) -> rules.Boon | None:
    return rules.boon(territory.slug, house=ctx.house, held=[t.slug for t in ctx.territories])


def _strikable(fighters: dict) -> list[str]:
    """The fighters a double may strike: the gang's own on the roster, not dead or held captive."""
    return sorted((fid for fid, snap in fighters.items() if snap.status not in (DEAD, CAPTURED, "retired")), key=int)


def _deleted(ctx: Context, fighters: dict) -> int:
    """Fighters deleted from a roster after this battle, as far as this gang's sequence can know (Corpse Farm)."""
    own_dead = sum(
        1
        for fid, snap in fighters.items()
        if snap.status == DEAD and not (fid in ctx.results and ctx.results[fid].killed)
    )
    return ctx.killed_in_battle + own_dead


def collect_territory(
    ctx: Context, out: StepOutcome, territory: TerritoryInfo, dice: DiceSource, choices: dict
) -> None:
    """One territory's income (and what its dice decide) into ``out``."""
    found = _boon(ctx, territory)
    rule = f"Collect Income: {territory.name}"
    mark = len(dice.rolls)
    if found is None:  # a territory the rules file does not know (added by hand): its income as the content says
        try:
            credits = roll_amount(territory.income, dice, f"{territory.name} income") if territory.income else 0
            text = f"income {territory.income} = {credits} credits" if territory.income else "no income"
        except RulesInputError:
            credits, text = 0, f"income {territory.income}: the arbitrator decides it"
        out.line(rule, text, since(dice, mark))
        if credits:
            out.effect("credits", amount=credits, reason=rule, dice=since(dice, mark))
        return
    strikable = _strikable(out.fighters)
    count = choices.get(f"dice_{territory.slug}")
    collected = rules.collect(
        found,
        dice,
        outlaw=ctx.outlaw,
        fighters=len(strikable),
        dome_runners=ctx.dome_runners,
        dice_count=int(count) if str(count or "").isdigit() else None,
        deleted=_deleted(ctx, out.fighters),
        captives=len(ctx.captives),
        suit=str(choices.get(f"suit_{territory.slug}") or ""),
    )
    enhanced = f" ({ctx.house}: enhanced boon)" if found.enhanced else ""
    out.line(rule + enhanced, collected.text if found.has_income else "no income", since(dice, mark))
    if collected.credits:
        out.effect("credits", amount=collected.credits, reason=rule, dice=since(dice, mark))
    if collected.struck is not None:
        fid = strikable[collected.struck]
        if collected.consequence == "lasting-injury":
            injure(
                ctx,
                out,
                out.fighters,
                fid,
                f"{territory.name}: Lasting Injury",
                lambda f: LASTING_INJURY_RULES.roll(f, dice),
            )
        elif out.fighters[fid].status != DEAD:
            why = f"{territory.name}: a waste-lurker; misses the next battle (in Recovery)"
            out.line(rule, why, (), ctx.name(fid))
            out.effect("status", fighter=fid, status=RECOVERY, captured_by=None, reason=why, dice=since(dice, mark))
            out.fighters[fid] = replace(out.fighters[fid], status=RECOVERY)
    hanger_on = collected.law_abiding_recruit
    if hanger_on and choices.get(f"hanger_on_{territory.slug}") and _may_recruit(ctx, hanger_on):
        out.line(f"{territory.name}: Recruit", f"a {hanger_on} joins for free (a Law-abiding gang's boon)")
        why = f"{territory.name}: a Law-abiding gang recruits a {hanger_on} for free"
        out.effect("recruit", category="hanger_on", fighter_type=hanger_on, name=hanger_on, reason=why)
    if found.recruit_roll and choices.get(f"recruit_{territory.slug}"):
        mark = len(dice.rolls)
        recruit = recruit_table(territory.name).roll(dice)
        out.line(
            f"{territory.name}: Recruit",
            f"two D6 rolled {recruit['roll'] // 10} and {recruit['roll'] % 10}: {recruit['result']}",
            since(dice, mark),
        )
        if recruit["recruit"]:
            name = recruit_name(ctx, out, choices.get(f"recruit_name_{territory.slug}"), recruit["recruit"])
            out.effect(
                "recruit",
                category=recruit["recruit"].lower(),
                name=name,
                reason=f"{territory.name} recruit ({recruit['roll']})",
                dice=since(dice, mark),
            )


def _may_recruit(ctx: Context, hanger_on: str) -> bool:
    """A Law-abiding gang's free Hanger-on joins once: not while one of that type is on the roster (docs/campaigns.md,
    Territories)."""
    return not any(fighter.fighter_type == hanger_on for fighter in ctx.fighters.values())


def territory_fields(ctx: Context) -> list[Field]:
    """The choices the gang's territories ask for before their income is rolled."""
    fields = []
    for territory in ctx.territories:
        found = None if territory.is_home_settlement else _boon(ctx, territory)
        if found is None:
            continue
        if found.choose_dice and not (found.collects == "outlaw" and not ctx.outlaw):
            low, high = found.choose_dice
            options = tuple((str(n), f"{n}D6x{found.times}") for n in range(low, high + 1))
            fields.append(
                Field(f"dice_{territory.slug}", f"{territory.name}: dice to roll", "select", options, initial=str(low))
            )
        if found.card_draw:
            options = tuple((suit, suit) for suit in rules.SUITS)
            fields.append(
                Field(
                    f"suit_{territory.slug}",
                    f"{territory.name}: the suit you choose",
                    "select",
                    options,
                    initial=rules.SUITS[0],
                )
            )
        hanger_on = found.law_abiding_recruit if found.collects == "outlaw" and not ctx.outlaw else ""
        if hanger_on and _may_recruit(ctx, hanger_on):
            label = f"Recruit a {hanger_on} for free ({territory.name}: a Law-abiding gang's boon)"
            fields.append(Field(f"hanger_on_{territory.slug}", label, "checkbox", initial=True))
        if found.recruit_roll:
            fields.append(
                Field(
                    f"recruit_{territory.slug}",
                    f"Roll two D6 for a free recruit ({territory.name})",
                    "checkbox",
                    initial=True,
                )
            )
            fields.append(
                Field(
                    f"recruit_name_{territory.slug}",
                    f"Name for a recruit from {territory.name}, if one comes",
                    "text",
                    initial="",
                )
            )
    return fields

"""Demo campaign: "The Sump Wars", a 2018+ campaign in its second cycle, arbitrated by the demo user.

Runs after the gangs step (it enters the demo user's and the rival's 2018+ gangs) and adds two more
demo players with small gangs, all built with the gang and campaign services and seeded dice, so a
fresh database always gets the same campaign: territories in the pool and held, Cycle 1 paired,
scenarios rolled, crews picked, both battles reported and confirmed (a territory changes hands). The rival's
player co-arbitrates: each arbitrator hands out the other's territories. Cycle 2, with the lowest-rated gang's
challenge, begins in the post-battle demo step (:func:`begin_cycle_two`), with the arbitrator's reason for the
one Cycle 1 sequence left to run.
Idempotent: an existing campaign is left alone.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaigns import services
from campaigns.models import Battle, Campaign, CampaignTerritory, Outcome, Side
from campaigns.selectors import (
    challenge_queue,
    crew_candidates,
    crew_page,
    current_cycle,
    roles_pending,
    standings,
    unapplied_sequences,
)
from content.models import Edition, House, Territory
from gangs import services as gang_services
from gangs.demo import RIVAL_USERNAME
from gangs.models import Gang
from rulebook.dice import SeededDice

NAME = "The Sump Wars"
OWN_GANGS = ("Venom Sisters", "Forge Hammers")
# Two more players for a fuller table: (user name, house slug, gang name, [(category, fighter name), ...])
EXTRA_PLAYERS = [
    (
        "demo-scav",
        "orlock",
        "Slag Dogs",
        [("leader", "Road Boss Harl"), ("ganger", "Wrench"), ("ganger", "Cog"), ("juve", "Sprocket")],
    ),
    (
        "demo-cult",
        "cawdor",
        "Ash Penitents",
        [("leader", "Word-Keeper Ossa"), ("ganger", "Brother Sallow"), ("ganger", "Sister Cinder")],
    ),
]
POOL = ("settlement", "old-ruins", "rogue-doc-shop", "workshop", "collapsed-dome", "wastes")


def _player(username: str):
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
    user.set_password("demo")
    user.save(update_fields=["password"])
    return user


def _extra_gang(username: str, slug: str, name: str, roster: list, dice: SeededDice) -> Gang | None:
    owner = _player(username)
    gang = Gang.objects.filter(owner=owner, name=name).first()
    if gang is not None:
        return gang
    house = House.objects.active().filter(edition=Edition.N18, slug=slug).first()
    if house is None:
        return None
    gang = gang_services.gang_create(owner=owner, house=house, name=name)
    types = {t.category: t for t in reversed(house.fighter_types.filter(is_active=True).order_by("order"))}
    for category, fighter_name in roster:
        if category in types:
            gang_services.fighter_hire(
                gang=gang, fighter_type=types[category], name=fighter_name, actor=owner, dice=dice
            )
    return gang


def _pick_crews(battle: Battle, dice: SeededDice) -> Battle:
    """Each side rolls its crew size when the rule asks, chooses up to three available fighters, and
    lets the dice pick the random ones."""
    for side in Side.values:
        fighters = crew_candidates(battle.gang_of(side))
        page = crew_page(battle, side, fighters)
        if page["needs_size_roll"]:
            battle = services.battle_crew_size_roll(battle=battle, side=side, dice=dice)
            page = crew_page(battle, side, fighters)
        may_choose = page["size"][0] if page["size"] else int(page["crew_rule"].chosen or 0)
        chosen = [f.pk for f, available in page["fighter_rows"] if available][: min(may_choose, 3)]
        battle = services.battle_crew_select(battle=battle, side=side, chosen=chosen, dice=dice)
    return battle


def _report(battle: Battle) -> Battle:
    """A plausible report: the attacker wins, the defender bottles out, one defender Out of Action (and, in a Border
    Dispute, the defender's relic defiled)."""
    crews = {side: [int(i) for i in battle.crews[side]["fighters"]] for side in Side.values}
    attackers, defenders = crews[Side.ATTACKER], crews[Side.DEFENDER]
    results = [{"fighter": pk, "outcome": Outcome.OK} for pk in attackers + defenders[1:]]
    if defenders:
        results.append(
            {
                "fighter": defenders[0],
                "outcome": Outcome.OUT_OF_ACTION,
                "caused_by": attackers[0] if attackers else None,
            }
        )
    if battle.scenario == "border-dispute" and attackers:
        # The attacker's win must follow from the facts (Border Dispute's Victory): its first fighter defiled the
        # defender's relic.
        results[0]["awards"] = {"relic_defiled": 1}
    facts = {"caskets_opened": 3} if battle.scenario == "smash-and-grab" else {}
    return services.battle_report_submit(
        battle=battle,
        actor=battle.attacker.owner,
        winner=battle.attacker,
        defender_bottled=True,
        fighter_results=results,
        scenario_facts=facts,
        notes="Demo: a short, sharp fight.",
    )


def build_demo_campaign(*, user, stdout) -> None:
    if Campaign.objects.filter(name=NAME, created_by=user).exists():
        return
    dice = SeededDice(7)
    owners = {"Venom Sisters": user, "Forge Hammers": get_user_model().objects.filter(username=RIVAL_USERNAME).first()}
    gangs = [Gang.objects.filter(owner=owners[n], name=n, edition=Edition.N18).first() for n in OWN_GANGS if owners[n]]
    gangs += [_extra_gang(*player, dice=dice) for player in EXTRA_PLAYERS]
    gangs = [g for g in gangs if g is not None and not g.memberships.filter(removed_at__isnull=True).exists()]
    if len(gangs) < 4:
        stdout.write("Skipped the demo campaign: it needs four free 2018+ gangs (run load_content and the gangs step).")
        return
    campaign = services.campaign_create(
        user=user,
        edition=Edition.N18,
        name=NAME,
        starting_credits=1000,
        description="A club campaign in the sump-side domes: four gangs, one cycle fought, the second under way.",
        house_rules="Battles are played on Thursdays. Challenges must be answered within a week.",
    )
    for gang in gangs:
        services.campaign_join(campaign=campaign, gang=gang, user=gang.owner)
    # The rival's player co-arbitrates: an arbitrator decides nothing for his own gang, so each hands out the
    # other's territories (separation of duties).
    arbitrators = [user]
    if owners["Forge Hammers"] is not None:
        arbitrators.append(owners["Forge Hammers"])
        services.arbitrator_add(campaign=campaign, user=owners["Forge Hammers"])

    def impartial(gang):
        return next((a for a in arbitrators if a.pk != gang.owner_id), None)

    pool = [
        services.territory_add(campaign=campaign, territory=t)
        for t in Territory.objects.active().filter(edition=Edition.N18, slug__in=POOL)
    ]
    for held, gang in zip(pool, gangs, strict=False):  # the pool may be larger or smaller
        if impartial(gang) is not None:
            services.territory_assign(held=held, holder=gang, actor=impartial(gang), reason="Demo: starting territory")
    services.campaign_start(campaign=campaign)
    cycle = services.cycle_pair(campaign=campaign, dice=dice)
    for battle in cycle.battles.order_by("pk"):
        battle = services.battle_scenario_roll(battle=battle, dice=dice)
        if roles_pending(battle):  # the demo's roll-off winners always choose to attack
            winner = battle.scenario_roll["roll_off"]["winner"]
            chooser = battle.attacker if winner == battle.attacker_id else battle.defender
            battle = services.battle_roles_choose(battle=battle, chooser=chooser, attack=True)
        battle = _report(_pick_crews(battle, dice))
        services.battle_report_confirm(battle=battle, actor=battle.defender.owner, is_arbitrator=False)
    unclaimed = CampaignTerritory.objects.filter(campaign=campaign, holder__isnull=True).first()
    first = cycle.battles.order_by("pk").first()
    if unclaimed is not None and first.winner is not None and impartial(first.winner) is not None:
        services.territory_assign(
            held=unclaimed, holder=first.winner, actor=impartial(first.winner), reason=f"Won {first.scenario_name}"
        )
    stdout.write(f"Demo campaign {NAME}: {len(gangs)} gangs, Cycle 1 fought (the post-battle step begins Cycle 2).")


def begin_cycle_two(campaign: Campaign, dice, *, user, reason: str = "") -> None:
    """Cycle 2 (the post-battle demo step calls this; ``reason``: why it begins with a sequence unapplied): the
    gangs ahead of the first free challenger pass, and it challenges another gang; both are gangs the demo user
    does not play, so he arbitrates their battle, and neither waits for a post-battle sequence."""
    services.cycle_advance(campaign=campaign, reason=reason, actor=user)
    queue = challenge_queue(campaign, standings(campaign), current_cycle(campaign))
    waiting = {gang.pk for _, gang in unapplied_sequences(campaign)}
    free = [row.gang for row in queue if row.gang.pk not in waiting and row.gang.owner_id != user.pk]
    if len(free) < 2:
        return
    challenger, target = free[0], free[-1]
    for row in queue:
        if row.gang == challenger:
            break
        services.challenge_pass(campaign=campaign, gang=row.gang, actor=row.gang.owner)
    held = CampaignTerritory.objects.filter(campaign=campaign, is_home_settlement=False)
    stakes = held.filter(holder=target).first() or held.filter(holder__isnull=True).first()
    if stakes is not None:
        challenge = services.challenge_issue(
            campaign=campaign, challenger=challenger, target=target, stakes=stakes, actor=challenger.owner
        )
        services.battle_scenario_roll(battle=challenge, dice=dice)

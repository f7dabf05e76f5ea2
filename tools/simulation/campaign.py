"""The campaign driver: players and gangs, the campaign, each cycle's battles from pairing or challenge to the
post-battle sequences, and the invariants after every step (:mod:`.invariants`).

Beside the checks on stored rows, the driver probes what must be refused: a second start of a campaign battle
returns the battle already in play, a second apply of a post-battle sequence is refused, and a second submit
of the begin-cycle form (the same cycle token) begins nothing.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from battles.services import battle_start_from_campaign
from campaigns import services as campaign_services
from campaigns.models import Battle, BattleStatus, Campaign
from campaigns.rules import classic_choices
from campaigns.selectors import captives_of, contenders, crew_candidates, engaged_gang_ids, rating_of, standings
from campaigns.services.house_rules import house_rules_change
from content.models import Edition, Territory
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry, LedgerKind
from postbattle import engine
from postbattle import services as postbattle_services
from postbattle.selectors import battle_context, fighters_before
from rulebook.dice import SeededDice
from rulebook.n18.matchmaking import next_challenger
from tools.simulation import invariants
from tools.simulation.battle import Player
from tools.simulation.gangs import found_gang, houses, long_name, player
from tools.simulation.invariants import InvariantBroken, check, check_all

POLICIES = ("mixed", "assistant", "hand")  # how the battles are played: either way at random, or all one way
# Territories in every campaign's pool: a Settlement (income, Reputation while held, a recruit roll), a Workshop
# (income for an Outlaw gang only, a free Ammo-jack for a Law-abiding one), a Collapsed Dome (the dice the player
# chooses, a double's Lasting Injury).
RULED_TERRITORIES = ("settlement", "workshop", "collapsed-dome")
HOUSE_RULES = {"winner_credits": 20, "loser_credits": 10, "credits_per_out_of_action": 5}
# What a captor does with a captive, in turn, when the player deals with one (the post-battle actions).
CAPTIVE_DEALS = ("Claim Bounties", "Sell to Guilders", "Dispose of Captives")


@dataclass(frozen=True)
class CycleTime:
    """One cycle's battles, how many of them were reported by hand, the battle assistant's actions in the others,
    and their seconds: a cycle of long assistant battles takes longer per battle than one of hand reports."""

    battles: int
    by_hand: int
    actions: int
    seconds: float

    def __str__(self) -> str:
        if not self.battles:
            return "no battles"
        return (
            f"{self.seconds / self.battles:.2f} s ({self.battles} battles, {self.by_hand} by hand, "
            f"{self.actions} actions)"
        )


@dataclass
class SimulationResult:
    edition: str
    gangs: int
    cycles: int
    seed: int
    policy: str = "mixed"
    battles: int = 0
    hand_reported: int = 0
    caskets: int = 0
    bounties: int = 0
    sales: int = 0
    incomes: int = 0
    reverts: int = 0
    fighters_lost: int = 0
    captures: int = 0
    rescue_missions: int = 0
    rescues: int = 0
    credits: int = 0
    seconds: float = 0.0
    actions: int = 0
    refusals: list[str] = field(default_factory=list)
    by_cycle: list[CycleTime] = field(default_factory=list)

    @property
    def per_battle(self) -> float:
        return self.seconds / self.battles if self.battles else 0.0

    def per_cycle(self) -> str:
        """The time per battle of each cycle, so that a cost growing with the campaign's age shows (issue 28)."""
        return "time per battle by cycle: " + ", ".join(
            f"{number}: {cycle}" for number, cycle in enumerate(self.by_cycle, start=1)
        )

    def so_far(self) -> CycleTime:
        return CycleTime(self.battles, self.hand_reported, self.actions, self.seconds)

    def summary(self) -> str:
        policy = "" if self.policy == "mixed" else f" policy={self.policy}"
        return (
            f"simulate_campaign {self.edition} gangs={self.gangs} cycles={self.cycles} seed={self.seed}{policy}: "
            f"{self.battles} battles ({self.hand_reported} reported by hand), {self.actions} actions, "
            f"{self.fighters_lost} fighters lost, {self.captures} captures, {self.rescues} rescues in "
            f"{self.rescue_missions} Rescue Missions, {self.caskets} caskets, {self.bounties} bounties, "
            f"{self.sales} captives sold to the Guilders, {self.incomes} territory incomes, "
            f"{self.reverts} reverts and re-runs, {self.credits} credits in the Stashes, "
            f"{self.per_battle:.2f} s per battle; invariants intact"
        )


class Simulation:
    def __init__(
        self, *, edition: str, gangs: int, cycles: int, seed: int, long_names: bool, out, policy: str = "mixed"
    ):
        self.edition, self.cycles, self.long_names, self.out = edition, cycles, long_names, out
        self.rng = random.Random(seed)
        self.policy = policy
        self.result = SimulationResult(edition, gangs, cycles, seed, policy)
        self.tag = f"sim{seed}-{uuid.uuid4().hex[:6]}"
        self.gang_count = gangs
        self.written: dict[int, int] = {}  # applied sequence → ledger entries it wrote
        self.deals = 0  # captives dealt with so far (CAPTIVE_DEALS in turn)

    def check_all(self, campaign: Campaign, step: str, *, complete: bool = False) -> None:
        check_all(campaign, step, written=self.written, complete=complete)

    def dice(self) -> SeededDice:
        """A fresh die source for each request, as each page request gets its own server dice."""
        return SeededDice(self.rng.randrange(1 << 30))

    # --- set-up -----------------------------------------------------------------------------------------

    def campaign(self) -> Campaign:
        if not houses(self.edition):
            raise InvariantBroken("content", "set-up", f"no {self.edition} house list with a Leader: run load_content")
        arbitrator = player(f"{self.tag}-arbitrator")
        name = f"Simulated campaign {self.tag}"
        campaign = campaign_services.campaign_create(
            user=arbitrator, edition=self.edition, name=long_name(name, 100) if self.long_names else name
        )
        for seat in range(self.gang_count):
            owner = player(f"{self.tag}-player{seat + 1}")
            gang_name = f"Gang {seat + 1} of {self.tag}"
            gang = found_gang(
                owner=owner,
                edition=self.edition,
                rng=self.rng,
                seed=self.rng.randrange(1 << 20),
                name=long_name(gang_name) if self.long_names else gang_name,
                long_names=self.long_names,
            )
            campaign_services.campaign_join(campaign=campaign, gang=gang, user=owner, dice=self.dice())
        pool = Territory.objects.active().filter(edition=self.edition, is_home_settlement=False).order_by("slug")
        ruled = sorted((t for t in pool if t.slug in RULED_TERRITORIES), key=lambda t: RULED_TERRITORIES.index(t.slug))
        others = [t for t in pool if t.slug not in RULED_TERRITORIES][: self.gang_count]
        for territory in others:
            campaign_services.territory_add(campaign=campaign, territory=territory)
        # The territories whose rules the reconciliation checks are handed out at the start, one to each of the
        # first gangs, so that even a small campaign collects their income after every battle those gangs fight.
        gangs = invariants.campaign_gangs(campaign)
        for territory, gang in zip(ruled, gangs, strict=False):
            held = campaign_services.territory_add(campaign=campaign, territory=territory)
            campaign_services.territory_assign(
                held=held, holder=gang, actor=arbitrator, reason="The simulation's starting territories"
            )
        if campaign.has_cycles:
            # House rules that pay after every battle, on top of the rules' rewards, so that the reconciliation
            # checks them on real battles (a club's usual ones: something for taking part, more for the win).
            house_rules_change(campaign=campaign, actor=arbitrator, **HOUSE_RULES, note="The simulation's house rules")
        campaign = campaign_services.campaign_start(campaign=campaign)
        self.check_all(campaign, "the campaign started")
        return campaign

    # --- matchmaking ------------------------------------------------------------------------------------

    def rescues(self, campaign: Campaign) -> None:
        """Each gang with a fighter held captive comes for them with a Rescue Mission, whatever the challenge
        order and whether the captors passed or already fight this cycle (half by challenge, half arranged by
        the arbitrator)."""
        gangs = [r.gang for r in standings(campaign)]
        for rescuers in gangs:
            for captors in gangs:
                if captors.pk == rescuers.pk or not captives_of(rescuers, captors).exists():
                    continue
                if self.rng.random() < 0.5:
                    campaign_services.challenge_issue(
                        campaign=campaign, challenger=rescuers, target=captors, rescue=True
                    )
                else:
                    campaign_services.battle_arrange(
                        campaign=campaign, attacker=rescuers, defender=captors, rescue=True
                    )
                self.result.rescue_missions += 1

    def challenges(self, campaign: Campaign) -> None:
        """From Cycle 2, each gang in turn (lowest rating first) challenges for a territory the target holds or
        an unclaimed one, or passes; half the time before the Rescue Missions are issued, half after."""
        rescue_first = self.rng.random() < 0.5
        if rescue_first:
            self.rescues(campaign)
        for _ in range(4 * self.gang_count):
            cycle = campaign.cycles.get(number=campaign.cycle)
            engaged = engaged_gang_ids(cycle)
            rows = standings(campaign)
            turn = next_challenger(contenders(rows), done={str(i) for i in engaged})
            if turn is None:
                break
            challenger = Gang.objects.get(pk=int(turn.id))
            free = [r.gang for r in rows if r.gang.pk not in engaged and r.gang.pk != challenger.pk]
            try:
                options = [
                    (g, t)
                    for g in free
                    for t in campaign.territories.filter(is_home_settlement=False)
                    if t.holder_id in (None, g.pk)
                ]
                if options:
                    target, stakes = self.rng.choice(options)
                    campaign_services.challenge_issue(
                        campaign=campaign, challenger=challenger, target=target, stakes=stakes
                    )
                    continue
            except ValidationError as refusal:
                self.result.refusals.append(f"challenge by {challenger.name}: {' '.join(refusal.messages)}")
            campaign_services.challenge_pass(campaign=campaign, gang=challenger)
        if not rescue_first:
            self.rescues(campaign)

    def classic_pairs(self, campaign: Campaign) -> None:
        """Classic campaigns have no cycles: the arbitrator pairs the gangs at random each round."""
        gangs = [r.gang for r in standings(campaign)]
        self.rng.shuffle(gangs)
        for first, second in zip(gangs[::2], gangs[1::2], strict=False):
            campaign_services.battle_arrange(campaign=campaign, attacker=first, defender=second)

    # --- one battle ---------------------------------------------------------------------------------------

    def scenario(self, battle: Battle) -> Battle:
        battle = campaign_services.battle_scenario_roll(battle=battle, dice=self.dice())
        chooser = battle.scenario_roll.get("chooser")
        if not battle.scenario and chooser:
            ranked = sorted((battle.attacker, battle.defender), key=rating_of, reverse=chooser == "higher rating")
            slug = self.rng.choice(classic_choices())[0]
            battle = campaign_services.battle_scenario_choose(battle=battle, scenario=slug, chooser=ranked[0])
        return battle

    def play(self, campaign: Campaign, battle: Battle) -> None:
        started = time.perf_counter()
        battle = self.scenario(battle)
        step = f"battle {battle.pk} ({battle.scenario_name}: {battle})"
        held_before = set(captives_of(battle.attacker, battle.defender).values_list("pk", flat=True))
        by_hand = self.policy == "hand" or (self.policy == "mixed" and self.rng.random() < 0.5)
        # The assistant needs a crew on each side (it says so); a gang with nobody fit to fight is reported by hand,
        # fielding nobody, as a table would.
        by_hand = by_hand or not all(map(can_field, (battle.attacker, battle.defender)))
        if by_hand:
            hand_report(battle, self.rng, self.dice)
            self.result.hand_reported += 1
            how = "reported by hand"
        else:
            session = battle_start_from_campaign(
                campaign_battle=battle, started_by=battle.attacker.owner, dice=self.dice()
            )
            again = battle_start_from_campaign(
                campaign_battle=battle, started_by=battle.defender.owner, dice=self.dice()
            )
            check("started once", step, "" if again.pk == session.pk else "a second start made a second battle")
            check("fielded", step, invariants.fielded(session))
            game = Player(session, self.rng, self.dice, battle.attacker.owner)
            game.play()
            self.result.actions += game.log.actions
            self.result.refusals += game.log.refusals
            how = f"{game.log.actions} actions, {game.log.prompts} prompts"
        self.check_all(campaign, f"{step}: the battle ended")
        battle.refresh_from_db()
        battle = campaign_services.battle_report_confirm(
            battle=battle, actor=battle.defender.owner, is_arbitrator=False
        )
        self.check_all(campaign, f"{step}: the report confirmed")
        for gang in (battle.attacker, battle.defender):
            sequence = self.post_battle(battle, gang, step)
            try:
                postbattle_services.sequence_apply(sequence=sequence, actor=gang.owner)
            except ValidationError:
                pass  # refused, as it must be
            else:
                check("applied once", step, f"{gang.name}'s post-battle sequence applied a second time")
            self.check_all(campaign, f"{step}: {gang.name}'s post-battle sequence")
            if self.rng.random() < 0.15:
                self.revert_and_rerun(campaign, sequence, step)
        check("experience owed", step, invariants.experience_owed(battle))
        check("rescued", step, invariants.rescued(battle, held_before))
        check("reconciled", step, invariants.reconciled(battle))
        self._tally(battle, held_before)
        self.result.seconds += time.perf_counter() - started
        self.out(f"  {step}: {battle.winner or 'draw'}; {how}")

    def revert_and_rerun(self, campaign: Campaign, sequence, step: str) -> None:
        """The arbitrator reverts an applied sequence and it is run again with the same dice and choices: the
        ledger ends where it was (each entry reversed, then written again)."""
        arbitrator = campaign.created_by
        before = invariants.battle_totals(sequence.battle, sequence.gang)
        postbattle_services.sequence_revert(sequence=sequence, actor=arbitrator, reason="a re-run with the same dice")
        self.check_all(campaign, f"{step}: {sequence.gang.name}'s sequence reverted")
        fresh = postbattle_services.sequence_rerun(sequence=sequence, actor=arbitrator, same_dice=True)
        postbattle_services.sequence_apply(sequence=fresh, actor=arbitrator)
        self.written[fresh.pk] = invariants.sequence_entries(fresh)
        self.written.pop(sequence.pk, None)
        self.result.reverts += 1
        after = invariants.battle_totals(sequence.battle, sequence.gang)
        check("re-run gives the same", step, "" if after == before else f"{sequence.gang.name}: {before} then {after}")
        self.check_all(campaign, f"{step}: {sequence.gang.name}'s sequence run again")

    def post_battle(self, battle: Battle, gang: Gang, step: str):
        sequence = postbattle_services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
        steps = engine.steps_for(sequence.edition)
        while sequence.step < len(steps):
            current = steps[sequence.step]
            context, _ = battle_context(battle, gang)
            fields = current.fields(context, fighters_before(sequence, sequence.step))
            deal = self._deal_with_captives(fields) if current.slug == "actions" else {}
            for choices in (self._choices(fields), self._choices(fields, initial=True)):
                try:
                    sequence = postbattle_services.sequence_step_submit(
                        sequence=sequence,
                        dice=self.dice(),
                        choices={**choices, **deal},
                        actor=gang.owner,
                        step=sequence.step,
                    )
                    break
                except ValidationError as refusal:
                    problem = f"{current.title} refused {choices}: {' '.join(refusal.messages)}"
            else:
                raise InvariantBroken("post-battle sequence", f"{step}: {gang.name}", problem)
        postbattle_services.sequence_apply(sequence=sequence, actor=gang.owner)
        self.written[sequence.pk] = invariants.sequence_entries(sequence)
        return sequence

    def _deal_with_captives(self, fields) -> dict:
        """Now and then a fighter free of other duties deals with a captive the gang holds, by the next of
        ``CAPTIVE_DEALS`` in turn: picked at random among five actions and every target, a bounty would seldom be
        claimed. The answers replace that fighter's own, whichever way the rest of the form is filled in."""
        deal: dict = {}
        for f in fields:
            if not f.name.startswith("target_") or f.initial:
                continue  # not a fighter's target, or a fighter escorting a patient to the Doc
            captives = [value for value, _ in f.options if value.startswith("captive:") and value not in deal.values()]
            if captives and self.rng.random() < 0.6:
                action = CAPTIVE_DEALS[self.deals % len(CAPTIVE_DEALS)]
                deal |= {f"action_{f.name.removeprefix('target_')}": action, f.name: captives[0]}
                self.deals += 1
        return deal

    def _choices(self, fields, *, initial: bool = False) -> dict:
        """The player's answers to a step's questions: at random among the offered ones, or the form's defaults."""
        out = {}
        for f in fields:
            if initial or (f.kind not in ("select", "checkbox")):
                out[f.name] = f.initial if f.initial is not None else ("" if f.kind != "checkbox" else False)
            elif f.kind == "checkbox":
                out[f.name] = self.rng.random() < 0.5
            else:
                out[f.name] = self.rng.choice([value for value, _ in f.options]) if f.options else ""
        return out

    def _tally(self, battle: Battle, held_before: set) -> None:
        # The entries that stand: a sequence reverted and run again wrote each of them twice, once reversed.
        live = LedgerEntry.objects.filter(battle_link__battle=battle, reverses__isnull=True, reversed_by__isnull=True)
        entries = live.filter(kind=LedgerKind.STATUS)
        self.result.battles += 1
        self.result.fighters_lost += entries.filter(data__status=FighterStatus.DEAD).count()
        self.result.captures += entries.filter(data__status=FighterStatus.CAPTURED).count()
        self.result.caskets += len(battle.scenario_facts.get("caskets") or ())
        # What was paid and still stands; one a bounty (the captive's status entry shares the reason).
        paid = live.filter(kind=LedgerKind.CREDITS)
        self.result.bounties += paid.filter(reason__startswith="Post-battle action: Claim Bounties").count()
        self.result.sales += paid.filter(reason__startswith="Post-battle action: Sell to Guilders").count()
        incomes = paid.filter(reason__startswith="Collect Income: ").exclude(reason__endswith=": Home Settlement")
        self.result.incomes += incomes.count()
        if battle.is_rescue:
            still = set(captives_of(battle.attacker, battle.defender).values_list("pk", flat=True))
            freed = Fighter.objects.filter(pk__in=held_before - still).exclude(status=FighterStatus.DEAD)
            self.result.rescues += freed.count()

    # --- the whole campaign ---------------------------------------------------------------------------

    def run(self) -> SimulationResult:
        campaign = self.campaign()
        for number in range(1, self.cycles + 1):
            if campaign.has_cycles:
                if number == 1:
                    campaign_services.cycle_pair(campaign=campaign, dice=self.dice())
                else:
                    self.challenges(campaign)
            else:
                self.classic_pairs(campaign)
            self.check_all(campaign, f"cycle {number}: matchmaking")
            self.out(f"Cycle {number}:")
            scheduled = campaign.battles.filter(status=BattleStatus.SCHEDULED).order_by("pk")
            before = self.result.so_far()
            for battle in scheduled.select_related("attacker__owner", "defender__owner", "campaign"):
                self.play(campaign, battle)
            now = self.result.so_far()
            self.result.by_cycle.append(
                CycleTime(
                    now.battles - before.battles,
                    now.by_hand - before.by_hand,
                    now.actions - before.actions,
                    now.seconds - before.seconds,
                )
            )
            self.check_all(campaign, f"cycle {number}: every battle played", complete=True)
            if campaign.has_cycles and number < self.cycles:
                campaign.refresh_from_db()
                seen = campaign.cycle
                campaign_services.cycle_advance(campaign=campaign, from_cycle=seen)
                try:
                    campaign_services.cycle_advance(campaign=campaign, from_cycle=seen)
                except ValidationError:
                    pass
                else:
                    check("one cycle per submit", f"cycle {number}", "a second submit began another cycle")
                self.check_all(campaign, f"cycle {number + 1} begun")
        self.result.credits = sum(g.stash for g in invariants.campaign_gangs(campaign))
        return self.result


def can_field(gang) -> bool:
    """Whether ``gang`` has a fighter fit to fight (not dead, captured, in Recovery...)."""
    return any(f.status == FighterStatus.ACTIVE for f in crew_candidates(gang))


def hand_report(battle: Battle, rng: random.Random, dice) -> None:
    """Report a battle by hand, as players who fought it at the table would: up to six fighters a side, each fine,
    Seriously Injured, Out of Action (now and then killed or captured) or, in a gang that bottled, fled; loot
    caskets opened by the sides the scenario lets open them, rolled on its table; a Rescue Mission the rescuers
    win frees their captives. The service checks it as the one battle record, as it does the report form's."""
    from campaigns.services import battle_report_submit, report_check, report_rows
    from rulebook.n18.campaign.battlefield import open_loot_casket
    from rulebook.n18.campaign.record import casket_rules, decided_result
    from rulebook.n18.campaign.record import other as other_role

    n18 = battle.campaign.edition == Edition.N18
    sides = {
        role: [f for f in crew_candidates(gang) if f.status == FighterStatus.ACTIVE][:6]
        for role, gang in (("attacker", battle.attacker), ("defender", battle.defender))
    }
    bottled = {role: rng.random() < 0.3 for role in sides}
    fled = {role: n18 and bottled[role] and rng.random() < 0.3 for role in sides}
    if all(fled.values()):
        fled["attacker"] = False
    results = []
    for role, fighters in sides.items():
        enemies = sides["defender" if role == "attacker" else "attacker"]
        for fighter in fighters:
            roll = rng.random()
            outcome = "ok" if roll < 0.5 else "seriously_injured" if roll < 0.65 else "out_of_action"
            if n18 and bottled[role] and roll > 0.9:
                outcome = "fled"
            by = rng.choice(enemies).pk if outcome in ("seriously_injured", "out_of_action") and enemies else None
            killed = n18 and outcome == "out_of_action" and rng.random() < 0.1
            captured = outcome == "out_of_action" and not killed and rng.random() < 0.15
            awards = {"rallies": 1} if n18 and rng.random() < 0.2 else {}
            results.append(
                {
                    "fighter": fighter.pk,
                    "outcome": outcome,
                    "caused_by": by,
                    "killed": killed,
                    "captured": captured,
                    "awards": awards,
                }
            )
    facts = {}
    if n18:
        rules = casket_rules(battle.scenario)
        openers = [(role, f) for role in rules.openers for f in sides[role]]
        caskets = []
        for _ in range(rng.randint(0, rules.count) if openers else 0):
            role, fighter = rng.choice(openers)
            found = open_loot_casket(dice(), smash_and_grab=rules.table != "loot-casket")
            caskets.append(
                {"side": role, "fighter": str(fighter.pk), "result": found["slug"], "credits": found["credits_gained"]}
            )
        if rules.left_to and fled[other_role(rules.left_to)] and not fled[rules.left_to]:
            # Smash & Grab: the caskets still unopened when the defender fled are rolled for the attacker.
            for _ in range(rules.count - len(caskets)):
                found = open_loot_casket(dice(), smash_and_grab=True, ignore_booby_trap=True)
                casket = {"side": rules.left_to, "fighter": None, "result": found["slug"], "left_behind": True}
                caskets.append({**casket, "credits": found["credits_gained"]})
        facts = {"caskets": caskets} if caskets else {}
    if fled["attacker"] != fled["defender"]:
        winner = battle.defender if fled["attacker"] else battle.attacker
    else:
        # The Rescue Mission's Victory: every captive freed is the rescuers' win, none the captors' (never a draw).
        winner = rng.choice(
            [battle.attacker, battle.defender] if battle.is_rescue else [battle.attacker, battle.defender, None]
        )
    held = list(captives_of(battle.attacker, battle.defender).values_list("pk", flat=True)) if battle.is_rescue else []
    freed = held if winner is not None and winner.pk == battle.attacker_id else []
    # The first rescuer frees them (Free Captive), unless the captors fled, which freed them (no fighter did).
    freed_by = (
        dict.fromkeys(freed, sides["attacker"][0].pk) if freed and sides["attacker"] and not fled["defender"] else {}
    )
    if n18:
        # Where the scenario's facts decide the result, the players report that one (the record refuses another).
        rows = report_rows(battle, results)
        bottled_roles = tuple(role for role, did in bottled.items() if did)
        fled_roles = tuple(role for role, did in fled.items() if did)
        record, _ = report_check(
            battle,
            rows,
            {**facts, "captives_freed": freed, "freed_by": [{"captive": c, "fighter": f} for c, f in freed_by.items()]},
            bottled=bottled_roles,
            fled=fled_roles,
        )
        decided = decided_result(record, captives=len(held))
        if decided is not None:
            winner = {"attacker": battle.attacker, "defender": battle.defender}.get(decided.winner)
    battle_report_submit(
        battle=battle,
        actor=battle.attacker.owner,
        winner=winner,
        is_draw=winner is None,
        attacker_bottled=bottled["attacker"],
        defender_bottled=bottled["defender"],
        attacker_fled=fled["attacker"],
        defender_fled=fled["defender"],
        fighter_results=results,
        scenario_facts=facts,
        captives_freed=freed,
        freed_by=freed_by,
        notes="Reported by hand",
    )


def simulate(
    *, edition: str, gangs: int, cycles: int, seed: int, long_names: bool = False, out=print, policy: str = "mixed"
) -> SimulationResult:
    """Play a whole campaign; raises :class:`InvariantBroken` at the first broken invariant."""
    if edition not in Edition.values:
        raise ValueError(f"unknown edition {edition!r}")
    if gangs < 2:
        raise ValueError("a campaign needs at least two gangs")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    return Simulation(
        edition=edition, gangs=gangs, cycles=cycles, seed=seed, long_names=long_names, out=out, policy=policy
    ).run()

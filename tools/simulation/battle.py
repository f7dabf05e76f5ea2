"""Playing one battle through the battle assistant's services with a simple seeded policy.

Each activation shoots an enemy in play at a distance within the weapon's range, or fights an engaged enemy; a
fighter with no ranged weapon charges (the table marks both fighters engaged, as a player would by hand). Every
prompt the rules raise (Nerve, Leadership, Bottle, Recovery, Rally, escaping pinning, Reinforcements) is answered
as soon as it appears. Now and then a fighter opens a loot casket (the scenario's rules decide who may). The
battle ends when a gang bottles out or has nobody left standing, or after :data:`MAX_ROUNDS` rounds (and in
any case after :data:`MAX_TURNS` rounds or turns tried, should the rounds stop moving on): the players then end
it as the scenario's facts propose (``battles.selectors.proposed_winner``), else the gang that did not bottle
wins, else it is a draw. At the end a fighter Out of Action is now and then captured, and a Rescue Mission the
rescuers won frees their captives (the end form's ticks).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from battles import selectors
from battles.models import BattleFighter, BattleSession, Condition, Phase
from battles.rules import edition_rules, fighting_weapons
from battles.services import (
    action_resolve,
    battle_advance,
    battle_end,
    battle_priority_set,
    battle_reinforce,
    fighter_adjust,
)
from campaigns.models import Side, other_side
from gangs.models import Purchase
from rulebook.dice import DiceSource

MAX_ROUNDS = 8
MAX_TURNS = 3 * MAX_ROUNDS  # rounds (2018+) or turns (classic) tried before the players call it a day
MAX_PROMPTS = 200  # per phase: a prompt the rules raise again and again would be a bug; stop rather than spin
IN_PLAY = {
    "n18": (Condition.ACTIVE, Condition.PINNED, Condition.SERIOUSLY_INJURED),
    "classic": (Condition.STANDING, Condition.PINNED, Condition.DOWN),
}
CAN_ACT = {"n18": (Condition.ACTIVE,), "classic": (Condition.STANDING,)}


@dataclass
class BattleLog:
    actions: int = 0
    prompts: int = 0
    refusals: list[str] = field(default_factory=list)  # services that refused a move the policy thought legal


class Player:
    """Both gangs' moves, from one seeded random stream; ``dice()`` gives each request its own server dice."""

    def __init__(self, session: BattleSession, rng: random.Random, dice: Callable[[], DiceSource], actor):
        self.session, self.rng, self.new_dice, self.actor = session, rng, dice, actor
        self.edition = session.edition
        self.log = BattleLog()
        self.ranges = self._ranges()

    def _ranges(self) -> dict[str, list[tuple[int, int]]]:
        """Weapon key → (profile index, long range in inches) of each profile with a range in inches."""
        keys = {}
        fighter_ids = self.session.fighters.values_list("fighter_id", flat=True)
        for purchase in Purchase.objects.filter(fighter_id__in=fighter_ids).prefetch_related("equipment__profiles"):
            keys[f"p{purchase.pk}"] = [
                (i, p.long_range) for i, p in enumerate(purchase.equipment.profiles.all()) if p.long_range
            ]
        return keys

    # --- reading the battle -----------------------------------------------------------------------------

    def refresh(self) -> list[BattleFighter]:
        self.session.refresh_from_db()
        return list(self.session.fighters.all())

    def enemies(self, fighters, fighter) -> list[BattleFighter]:
        return [f for f in fighters if f.side != fighter.side and f.condition in IN_PLAY[self.edition]]

    # --- acting ---------------------------------------------------------------------------------------

    def _try(self, what: str, call) -> bool:
        try:
            call()
        except ValidationError as refusal:
            self.log.refusals.append(f"{what}: {' '.join(refusal.messages)}")
            return False
        return True

    def act(self, kind: str, params: dict) -> bool:
        done = self._try(
            f"{kind} {params}",
            lambda: action_resolve(
                session=self.session, kind=kind, params=params, actor=self.actor, dice=self.new_dice()
            ),
        )
        self.log.actions += done
        return done

    def adjust(self, fighter, name: str, value) -> bool:
        return self._try(
            f"set {fighter.name} {name}",
            lambda: fighter_adjust(session=self.session, fighter=fighter, field=name, value=value, actor=self.actor),
        )

    def answer_prompts(self) -> None:
        """Answer every prompt the rules raise now, and those the answers raise, until none is left."""
        seen = set()
        for _ in range(MAX_PROMPTS):
            fighters = self.refresh()
            if self.session.is_over:
                return
            waiting = [p for p in selectors.battle_prompts(self.session, fighters) if repr(p) not in seen]
            if not waiting:
                return
            prompt = waiting[0]
            seen.add(repr(prompt))
            self.log.prompts += 1
            if prompt.params.get("also_under"):
                # Who else is under a Blast marker or Flame template only the table knows (it names no target):
                # the machine's players place their fighters apart, so nobody else is.
                continue
            if prompt.kind == "reinforce":
                self._try(
                    prompt.text,
                    lambda p=prompt: battle_reinforce(
                        session=self.session, side=p.params["side"], actor=self.actor, dice=self.new_dice()
                    ),
                )
            else:
                self.act(prompt.kind, dict(prompt.params))
        raise RuntimeError(f"the rules kept raising prompts in the {self.session.get_phase_display()} phase")

    def shoot_or_fight(self, fighter: BattleFighter, fighters: list[BattleFighter]) -> bool:
        """The policy's one action for a fighter: fight an engaged enemy, else shoot one in range, else charge."""
        enemies = self.enemies(fighters, fighter)
        if not enemies:
            return False
        engaged = [e for e in enemies if e.engaged]
        if fighter.engaged and engaged:
            return self.fight(fighter, self.rng.choice(engaged))
        shots = self._shots(fighter)
        targets = [e for e in enemies if not e.engaged] if self.edition == "classic" else enemies
        if shots and targets and not fighter.engaged:
            key, index, reach = self.rng.choice(shots)
            params = {
                "fighter": fighter.pk,
                "target": self.rng.choice(targets).pk,
                "weapon": f"{key}:{index}",
                "distance": self.rng.randint(1, reach),
                "cover": self.rng.choice(["none", "partial"]),
            }
            return self.act("shoot", params)
        target = self.rng.choice(enemies)
        self.charge(fighter, target)
        return self.fight(fighter, target, charging=True)

    def charge(self, fighter, target) -> None:
        """The charge is moved at the table; the assistant is told both fighters are now engaged."""
        if self.adjust(fighter, "engaged", True):
            self.adjust(target, "engaged", True)

    def fight(self, fighter, target, charging: bool = False) -> bool:
        params = {"fighter": fighter.pk, "target": target.pk}
        if self.edition == "classic":
            params["charging"] = charging
        else:
            weapons = fighting_weapons(fighter, edition_rules(self.edition).offered)
            if weapons:
                entry, index = self.rng.choice(weapons)
                params["weapon"] = f"{entry['key']}:{index}"
        return self.act("fight", params)

    # --- the battle's structure -----------------------------------------------------------------------

    def over(self) -> bool:
        fighters = self.refresh()
        for side in Side.values:
            mine = [f for f in fighters if f.side == side]
            if self.session.bottled(side) or not any(f.condition in CAN_ACT[self.edition] for f in mine):
                return True
        return self.session.round > MAX_ROUNDS

    def advance(self) -> None:
        self._try("next phase", lambda: battle_advance(session=self.session, actor=self.actor))

    def n18_round(self) -> None:
        """Priority (a roll-off, seeded), the Action phase's alternating activations, the End phase's tests."""
        side = self.rng.choice(Side.values)
        self._try("priority", lambda: battle_priority_set(session=self.session, side=side, actor=self.actor))
        self.advance()  # to the Action phase
        for _ in range(64):
            self.answer_prompts()
            if self.over():
                return
            fighters = self.refresh()
            ready = [f for f in fighters if f.ready and f.condition in (Condition.ACTIVE, Condition.PINNED)]
            if not ready:
                break
            mine = [f for f in ready if f.side == side] or ready
            fighter = mine[0]
            side = other_side(fighter.side)
            if fighter.condition == Condition.PINNED or fighter.broken:
                # A Pinned fighter stands up; a Broken one runs for cover: either way, the activation is spent.
                if fighter.condition == Condition.PINNED:
                    self.adjust(fighter, "condition", Condition.ACTIVE)
            elif self.shoot_or_fight(fighter, fighters):
                continue
            fighter.refresh_from_db()
            if fighter.ready:
                self.adjust(fighter, "ready", False)
        self.answer_prompts()
        self.advance()  # to the End phase
        self.answer_prompts()
        if not self.over():
            self.advance()  # the next round

    def classic_turn(self) -> None:
        """One player's turn: movement (charges), shooting, hand-to-hand, recovery, prompts after every step."""
        side = self.session.turn_side
        self.answer_prompts()  # the Bottle test and escaping pinning, at the start of the turn
        for phase in (Phase.MOVEMENT, Phase.SHOOTING, Phase.HAND_TO_HAND):
            if self.over():
                return
            fighters = self.refresh()
            mine = [f for f in fighters if f.side == side and f.condition == Condition.STANDING and not f.broken]
            for fighter in mine:
                fighter.refresh_from_db()
                if fighter.condition != Condition.STANDING:
                    continue
                if phase == Phase.MOVEMENT and not fighter.engaged and not self._can_shoot(fighter):
                    enemies = [e for e in self.enemies(self.refresh(), fighter) if e.condition == Condition.STANDING]
                    if enemies:
                        self.charge(fighter, self.rng.choice(enemies))
                elif phase == Phase.SHOOTING and not fighter.engaged and self._can_shoot(fighter):
                    self.shoot_or_fight(fighter, self.refresh())
                elif phase == Phase.HAND_TO_HAND and fighter.engaged:
                    engaged = [e for e in self.enemies(self.refresh(), fighter) if e.engaged]
                    if engaged:
                        self.fight(fighter, self.rng.choice(engaged))
                self.answer_prompts()
                if self.over():
                    return
            self.advance()
            self.answer_prompts()
        self.advance()  # from the recovery phase to the other player's turn

    def _shots(self, fighter) -> list[tuple[str, int, int]]:
        """(weapon key, profile index, long range) of each profile the fighter can shoot (as the Shoot menu offers
        it) with a range in inches, of weapons not failed."""
        reaches = {(key, index): reach for key, profiles in self.ranges.items() for index, reach in profiles}
        usable = edition_rules(self.edition).offered(fighter, "shoots").usable
        return [
            (entry["key"], index, reaches[entry["key"], index])
            for entry, index in usable
            if entry["key"] not in fighter.failed_weapons and (entry["key"], index) in reaches
        ]

    def _can_shoot(self, fighter) -> bool:
        return bool(self._shots(fighter))

    def open_casket(self, fighters) -> None:
        """2018+: a fighter who can act opens a loot casket, one time in four (refused when the scenario says
        their side may not, or every casket is open: then the policy simply moves on)."""
        ready = [f for f in fighters if f.ready and f.condition == Condition.ACTIVE]
        if self.edition == "n18" and ready and self.rng.random() < 0.25:
            self.act("scenario", {"action": "loot-casket", "fighter": self.rng.choice(ready).pk})

    def play(self) -> str:
        """Play to the end; the winning side ("attacker", "defender") or "" for a draw, as the report is ended with."""
        for _ in range(MAX_TURNS):
            if self.over():
                break
            if self.edition == "n18":
                self.open_casket(self.refresh())
                self.n18_round()
            else:
                self.classic_turn()
        fighters = self.refresh()
        lost = {
            side: self.session.bottled(side)
            or not any(f.condition in CAN_ACT[self.edition] for f in fighters if f.side == side)
            for side in Side.values
        }
        winner = next((side for side in Side.values if lost[other_side(side)] and not lost[side]), "")
        proposed, _ = selectors.proposed_winner(self.session, fighters)
        winner = proposed if proposed is not None else winner
        fled = set(self.session.facts.get("fighters_fled", []))
        down = [f.fighter_id for f in fighters if f.condition == Condition.OUT_OF_ACTION and f.pk not in fled]
        captured = [pk for pk in down if pk and self.rng.random() < 0.15]
        freed = []
        campaign_battle = self.session.campaign_battle
        if campaign_battle is not None and campaign_battle.is_rescue:
            from campaigns.selectors import rescue_captives

            if winner == Side.ATTACKER:
                freed = [c.pk for c in rescue_captives(campaign_battle)]
            elif rescue_captives(campaign_battle):
                winner = Side.DEFENDER  # no captive took flight: the captors' (the record refuses a draw)
        # The first rescuer on the battlefield frees each captive (Free Captive).
        rescuer = next((f.fighter_id for f in fighters if f.side == Side.ATTACKER and f.fighter_id), None)
        freed_by = dict.fromkeys(freed, rescuer) if rescuer else {}
        battle_end(
            session=self.session,
            actor=self.actor,
            winner=winner,
            captured=captured,
            captives_freed=freed,
            freed_by=freed_by,
        )
        return winner

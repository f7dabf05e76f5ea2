"""The 2018+ rules' effects: an ``n18`` answer written onto the fighters and the battle, in words.

States follow the project's content facts (section 3): a fighter is Active, Pinned, Seriously Injured or
Out of Action, and apart from that Standing or Prone, Broken or not, Ready or already activated this
round; a Standing fighter hit by a ranged attack becomes Prone and Pinned (melee hits do not pin). Ammo tests leave a weapon Out of Ammo
(for good when jammed, or for the weapons ``rulebook.n18.shooting.NOT_RELOADED`` names); Nerve, Rally,
Recovery (assisted or not), Reload, Falling and the Bottle test change what their outcome says.
"""

from __future__ import annotations

from battles.models import Condition
from battles.rules import Plan, bottle_outcome, counted, lock_in_combat, weapon_fails, weapon_key
from battles.rules import casualties as casualties_among
from rulebook.n18 import kit, trading_post
from rulebook.n18.campaign.lasting_injury import characteristic_change_text
from rulebook.n18.shooting import NOT_RELOADED
from rulebook.query import Query


def fresh_state(profile: dict) -> dict:
    return {"wounds_left": profile["stats"].get("W", 1), "condition": Condition.ACTIVE, "ready": True}


def harm(fighter, after: dict, by) -> list[str]:
    """The rulebook's ``target_after`` written onto the fighter."""
    changes = []
    lost = fighter.wounds_left - after["wounds"]
    if lost > 0:
        changes.append(f"{fighter.name} loses {counted(lost, 'wound')}")
    fighter.wounds_left = after["wounds"]
    new_flesh = after["flesh_wounds"] - min(fighter.flesh_wounds, fighter.stats["T"] - 1)
    if new_flesh > 0:
        fighter.flesh_wounds += new_flesh
        changes.append(f"{fighter.name} takes {counted(new_flesh, 'Flesh Wound')}")
    if after["out_of_action"] and not fighter.out_of_action:
        fighter.condition, fighter.engaged, fighter.ready = Condition.OUT_OF_ACTION, False, False
        fighter.taken_out_by = by
        changes.append(f"{fighter.name} is Out of Action")
    elif after["seriously_injured"] and fighter.condition != Condition.SERIOUSLY_INJURED:
        fighter.condition, fighter.prone = Condition.SERIOUSLY_INJURED, True
        fighter.seriously_injured_by = by
        changes.append(f"{fighter.name} is Seriously Injured")
    return changes


def _pin(fighter) -> list[str]:
    """A Standing fighter hit by a ranged attack (or who falls) becomes Prone and Pinned."""
    if fighter.condition != Condition.ACTIVE:
        return []
    fighter.condition, fighter.prone = Condition.PINNED, True
    return [f"{fighter.name} is Prone and Pinned"]


def activated(fighter, session) -> None:
    """The fighter's activation is spent; if Blind, activated, he sees again (:func:`sees_again`)."""
    fighter.ready = False
    sees_again(session, fighter)


def sees_again(session, fighter) -> None:
    """Blind (Flash) lasts until the fighter is next activated (2023 core rulebook, Conditions)."""
    blind = session.facts.get(BLIND, [])
    if fighter.pk in blind:
        session.facts = {**session.facts, BLIND: [pk for pk in blind if pk != fighter.pk]}


def apply_shoot(plan: Plan, result: dict, session) -> list[str]:
    shooter, target = plan.fighter, plan.target
    scattered = _scatter_words(result.get("scatter"))
    changes = _hits_taken(target, result, shooter)
    for other, share in zip(plan.others, result.get("split", []), strict=False):
        changes += _hits_taken(other, share, shooter)  # Rapid Fire hits split to fighters within 3"
    changes += _special_effect(session, target, result.get("effect"), plan.query)
    changes += _weapon_fails(shooter, plan, result)
    changes += _blaze_hit(session, plan, result.get("hits", 0))
    activated(shooter, session)
    return [*scattered, *changes] or ["No effect"]


def _hits_taken(fighter, result: dict, by) -> list[str]:
    """One fighter's share of a shot: its hits (Rapid Fire: each resolved in turn), harm and pinning."""
    hits = result.get("hits", 0)
    changes = [f"{fighter.name} takes {hits} hits"] if hits > 1 else []
    changes += harm(fighter, result["target_after"], by=by)
    if result.get("pins"):
        changes += _pin(fighter)
    return changes


SCATTER_WORDS = {
    "dud": "The Blast marker scatters: a dud, the attack ends",
    "on_shooter": "The Blast marker misfires: it is centred on the shooter",
}
BLIND_NEXT_ROUND = "blind_next_round"  # battle fact: fighters Blinded while not Ready, who gain no Ready next round
BLIND = "blind"  # battle fact: fighters Blind until next activated, whose Reaction attacks hit only on natural 6s
WEBBED = "webbed"  # battle fact: fighters Webbed (treated as Seriously Injured until a Recovery frees them)
# battle fact: fighters who succumbed to the web (Out of Action on a Recovery while Webbed): the record says so, and
# after the battle they roll the Webbed D6 instead of a Lasting Injury
WEBBED_OUT_OF_ACTION = "webbed_out_of_action"


def _scatter_words(scatter: dict | None) -> list[str]:
    """Where a Blast marker that missed went (its Scatter dice and D6 were rolled with the shot)."""
    if not scatter:
        return []
    if scatter["lands"] == "scattered":
        return [f'The Blast marker scatters {scatter["inches"]}" towards {scatter["direction"]}']
    return [SCATTER_WORDS[scatter["lands"]]]


def _special_effect(session, target, effect: dict | None, query: dict) -> list[str]:
    """Flash: a Blind fighter loses their Ready marker, or gains none next round; Web: a Webbed fighter is treated as
    Seriously Injured until a Recovery test frees them; Smoke: the cloud; Graviton Pulse: its marker stays (2023 core
    rulebook, weapon traits and conditions; ``rulebook.n18.shooting``)."""
    if "Graviton Pulse" in trading_post.trait_names(trading_post.read_profile(Query(query))):
        return ['The grav Blast marker stays this round: moving through it costs 2" for every 1"']
    if not effect:
        return []
    if effect["trait"] == "Smoke":
        return [
            f"A smoke cloud ({effect['cloud_radius']} around the marker) blocks line of sight; it clears on a D6 "
            "of 4 or less in each End phase"
        ]
    if not effect["taken"] or target.out_of_action:
        return [f"{target.name} is not {effect['condition']}"]
    if effect["condition"] == "Blind":
        if not target.ready:
            session.facts = {**session.facts, BLIND_NEXT_ROUND: [*session.facts.get(BLIND_NEXT_ROUND, []), target.pk]}
        target.ready = False
        blind = session.facts.get(BLIND, [])
        session.facts = {**session.facts, BLIND: blind if target.pk in blind else [*blind, target.pk]}
        return [f"{target.name} is Blind: no Ready marker (only Reaction attacks, hitting on 6s, until activated)"]
    target.condition, target.prone, target.engaged = Condition.SERIOUSLY_INJURED, True, False
    session.facts = {**session.facts, WEBBED: [*session.facts.get(WEBBED, []), target.pk]}
    return [f"{target.name} is Webbed: treated as Seriously Injured, Recovery in the End phase"]


BLAZE_TO_ROLL = "blaze_to_roll"  # battle fact: fighters hit by a Blaze weapon whose D6 (4+ catches) is still due


def _blaze_hit(session, plan: Plan, hits: int) -> list[str]:
    """A hit from a Blaze weapon that leaves the target in play asks for the D6 that sets them ablaze on a 4+
    (Blaze trait, ``rulebook.n18.close_quarters``)."""
    target = plan.target
    traits = trading_post.trait_names(trading_post.read_profile(Query(plan.query)))
    if "Blaze" not in traits or not hits or target.out_of_action or target.ablaze:
        return []
    due = session.facts.get(BLAZE_TO_ROLL, [])
    if target.pk not in due:
        session.facts = {**session.facts, BLAZE_TO_ROLL: [*due, target.pk]}
    return [f"{target.name} may catch fire (Blaze: a D6, 4+)"]


def _blaze(plan: Plan, result: dict, session) -> list[str]:
    """The Blaze condition: catching fire after a Blaze hit, or the burn and the attempt to put it out when the
    fighter is activated (a Pinned fighter stands up; one who moved may drop Prone and Pinned again)."""
    fighter = plan.fighter
    if result["step"] == "catch":
        session.facts = {
            **session.facts,
            BLAZE_TO_ROLL: [pk for pk in session.facts.get(BLAZE_TO_ROLL, []) if pk != fighter.pk],
        }
        fighter.ablaze = bool(result["catches_fire"])
        return [f"{fighter.name} {'catches fire' if fighter.ablaze else 'does not catch fire'}"]
    changes = harm(fighter, result["target_after"], by=None)
    standing = not fighter.out_of_action and fighter.condition != Condition.SERIOUSLY_INJURED
    if standing and plan.query.get("goes_prone"):
        fighter.condition, fighter.prone = Condition.PINNED, True
        changes.append(f"{fighter.name} drops Prone and Pinned")
    elif standing and fighter.condition == Condition.PINNED:
        fighter.condition, fighter.prone = Condition.ACTIVE, False
        changes.append(f"{fighter.name} stands up, burning")
    if fighter.out_of_action or result.get("flames_out"):
        fighter.ablaze = False
        if not fighter.out_of_action:
            changes.append(f"{fighter.name} puts the fire out")
    else:
        changes.append(f"{fighter.name} is still ablaze")
    return changes


def _weapon_fails(shooter, plan: Plan, result: dict) -> list[str]:
    """A failed Ammo test leaves the weapon Out of Ammo until reloaded; two failures jam it, and a grenade, Scarce
    or Limited weapon Out of Ammo stays so, for the rest of the battle (``jammed_weapons``: no reload)."""
    if not (result.get("jammed") or result.get("ammo_test") == "out_of_ammo"):
        return []
    key = weapon_fails(shooter, plan)
    name = shooter.weapon(key)["name"]
    for_good = trading_post.trait_names(trading_post.read_profile(Query(plan.query))) & NOT_RELOADED
    if result.get("jammed") or for_good:
        shooter.jammed_weapons = [*shooter.jammed_weapons, key]
        words = "jams" if result.get("jammed") else "is Out of Ammo"
        return [f"{shooter.name}'s {name} {words} for the rest of the battle"]
    return [f"{shooter.name}'s {name} is Out of Ammo"]


def apply_fight(plan: Plan, result: dict, session) -> list[str]:
    """Close combat hits wound and injure but do not pin: only a ranged hit makes a Standing fighter Prone and
    Pinned (2023 core rulebook, Shooting: Pinning,
    https://necrovox.org/docs/the-rules/shooting), so both sides of a fight stay Standing and Engaged
    unless Seriously Injured or taken Out of Action."""
    attacker, target = plan.fighter, plan.target
    changes = []
    if plan.params.get("charging") and target.condition == Condition.PINNED:
        target.condition, target.prone = Condition.ACTIVE, False  # charged: stands up, Standing and Engaged
        changes.append(f"{target.name} stands to meet the charge")
    changes += harm(target, result["target_after"], by=attacker)
    reaction = result.get("reaction") or {}
    if reaction.get("made"):
        changes += harm(attacker, reaction["attacker_after"], by=target)
    lock_in_combat(attacker, target)
    activated(attacker, session)
    return changes or ["No effect"]


def apply_coup_de_grace(plan: Plan, result: dict, session) -> list[str]:
    """The target goes Out of Action; the attacker, no longer Engaged with them, has acted (a Simple action of
    their activation)."""
    changes = harm(plan.target, result["target_after"], by=plan.fighter)
    lock_in_combat(plan.fighter, plan.target)
    activated(plan.fighter, session)
    return changes


RECOVERY_WORDS = {"recovers": "recovers: Prone and Pinned", "stays_down": "stays Seriously Injured"}


def apply_test(plan: Plan, result: dict, session) -> list[str]:
    kind, fighter = plan.params["test"], plan.fighter
    if kind == "bottle":
        return bottle_outcome(session, plan.side, bool(result.get("bottled")), "holds")
    if kind == "nerve" and not result["passed"]:
        fighter.broken = True
        return [f"{fighter.name} is Broken"]
    if kind == "rally" and result["passed"]:
        fighter.broken = False
        return [f"{fighter.name} rallies"]
    if kind == "blaze":
        return _blaze(plan, result, session)
    if kind == "flee":
        if result["passed"]:
            return [f"{fighter.name} stands firm"]
        fighter.condition, fighter.engaged, fighter.ready = Condition.OUT_OF_ACTION, False, False
        # Removed as Out of Action, but recorded as fled: no Lasting Injury and nobody credited after the battle.
        session.facts = {**session.facts, "fighters_fled": [*session.facts.get("fighters_fled", []), fighter.pk]}
        return [f"{fighter.name} flees the battlefield (removed; fled, not taken Out of Action)"]
    if kind == "recovery":
        if fighter.pk in session.facts.get(WEBBED, []):
            return _webbed_recovery(session, fighter, result["outcome"], plan.query["assisted"])
        return _recovery(fighter, result["outcome"], plan.query["assisted"])
    if kind == "reload":
        key = weapon_key(plan)
        if not result["passed"]:
            return [f"{fighter.name} fails to reload the {fighter.weapon(key)['name']}"]
        fighter.failed_weapons = [k for k in fighter.failed_weapons if k != key]
        return [f"{fighter.name} reloads the {fighter.weapon(key)['name']}"]
    if kind == "fall":
        changes = harm(fighter, result["target_after"], by=None)
        if result["outcome"] not in ("stays_put", "no_fall"):
            changes += _pin(fighter)
        if plan.query.get("cause") != "forced":
            # A fighter who falls or jumps down during their own move ends their activation (the movement
            # chapter); one forced off a ledge falls in the enemy's activation.
            activated(fighter, session)
        return changes or [f"{fighter.name}: {result['outcome'].replace('_', ' ')}"]
    if kind == "chem":
        return _chem(fighter, plan.query["chem"], result)
    if kind == "agility":
        # Taken while moving in their own activation (leaping a gap, climbing): it counts as acting.
        activated(fighter, session)
    return [f"{fighter.name} {'passes' if result.get('passed') else 'fails'}"]


def _chem(fighter, slug: str, result: dict) -> list[str]:
    """A chem's roll written onto the fighter (``rulebook.n18.kit``): Spur worn off, Kalma or Obscura shaken off (their
    effect gone from the stat line and the prompts), a failed Kalma roll wasting the action, Ghast's D6 said (its
    Insane and Wyrd Power are the table's), Icrotic Slime's gains in the stat line."""
    state = dict(fighter.chem_state or {})
    name = kit.CHEM_NAMES[slug]
    if slug in kit.SHAKE_OFF:
        if not result["passed"]:
            if slug == "kalma":
                return [f"{fighter.name} is still under Kalma ({result['total']}): the action is wasted"]
            return [f"{fighter.name} is still under {name} ({result['total']})"]
        state["worn_off"] = [*state.get("worn_off", []), slug]
        fighter.chem_state = state
        if slug == "obscura":
            return [f"{fighter.name} shakes off Obscura ({result['total']}): one action an activation from now on"]
        return [f"{fighter.name}: {name} wears off ({result['total']})"]
    state["rolled"] = [*state.get("rolled", []), slug]
    if slug == "ghast":
        fighter.chem_state = state
        return [f"{fighter.name}'s Ghast ({result['score']}): {GHAST_WORDS[result['outcome']]}"]
    before = fighter.stats
    state["gains"] = dict(result["gains"])
    fighter.chem_state = state
    after = fighter.stats
    better = [characteristic_change_text(c, before[c], after[c]) for c in kit.ICROTIC_CHECKS if before[c] != after[c]]
    return [f"{fighter.name}'s Icrotic Slime: {', '.join(better) or 'no check passed'}"]


GHAST_WORDS = {
    "insane": "Insane (played at the table)",
    "wyrd_power": "a random Wyrd Power (rolled and played at the table)",
    "both": "a random Wyrd Power and Insane (played at the table)",
}


def _recovery(fighter, outcome: str, assisted: bool) -> list[str]:
    if outcome == "out_of_action":
        fighter.condition, fighter.ready = Condition.OUT_OF_ACTION, False
        return [f"{fighter.name} is Out of Action"]
    if not assisted:
        fighter.flesh_wounds += 1
    if outcome == "recovers":
        fighter.condition, fighter.prone = Condition.PINNED, True
    words = f"{fighter.name} {RECOVERY_WORDS[outcome]}"
    return [words + ("" if assisted else ", with a Flesh Wound")]


def _webbed_recovery(session, fighter, outcome: str, assisted: bool) -> list[str]:
    """A Webbed fighter's Recovery (the Webbed condition): a Flesh Wound frees them as usual (the Flesh Wound,
    Prone and Pinned); a Serious Injury keeps them Webbed with no Flesh Wound; Out of Action removes them, and after
    the battle a D6 says Out Cold (1-4) or Captured (5-6) instead of a Lasting Injury."""
    if outcome == "stays_down":
        return [f"{fighter.name} stays Webbed"]
    session.facts = {**session.facts, WEBBED: [pk for pk in session.facts.get(WEBBED, []) if pk != fighter.pk]}
    if outcome == "out_of_action":
        fighter.condition, fighter.ready = Condition.OUT_OF_ACTION, False
        taken = session.facts.get(WEBBED_OUT_OF_ACTION, [])
        session.facts = {**session.facts, WEBBED_OUT_OF_ACTION: [*taken, fighter.pk]}
        return [
            f"{fighter.name} succumbs to the web: Out of Action (after the battle a D6: 1-4 Out Cold, 5-6 "
            "Captured, no Lasting Injury roll)"
        ]
    fighter.flesh_wounds += not assisted
    fighter.condition, fighter.prone = Condition.PINNED, True
    return [f"{fighter.name} breaks free of the web: Prone and Pinned" + ("" if assisted else ", with a Flesh Wound")]


def casualties(plan: Plan) -> list:
    """Fighters Seriously Injured or taken Out of Action by this action: their friends take Nerve tests."""
    return casualties_among(plan, (Condition.SERIOUSLY_INJURED, Condition.OUT_OF_ACTION))

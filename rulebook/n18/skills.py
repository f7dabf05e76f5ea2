"""2018+ skills the engine models exactly, and Group Activation.

Sources (the wording here is ours): the 2023 core rulebook's skills as the reworded public page
``docs/gang-fighters--their-weaponry/skills.md`` of the repository joeseos/necro-com gives them, and its Action phase
as the necrovox copy in yakuzadave/necroman_v2 gives it
(``necrovox_docs/Necromunda_Docs/6-the-rules/5-the-action-phase.md``):

- **Berserker** (Ferocity): a fighter fighting as part of a Charge rolls one more Attack dice
  (``rulebook.n18.fighting``: ``skills`` of the attacker).
- **Iron Will** (Leadership): while the fighter is on the battlefield and not Seriously Injured, his gang's Bottle
  tests take 1 off the roll (``rulebook.n18.checks``: ``iron_will`` of a Bottle test).
- **Group Activation (X)** (a fighter's special rule): when activated he may bring up to X other Ready friends within
  3", each then activating in turn; **Commanding Presence** (Leadership) brings one more. The battle assistant counts
  the activations; no roll changes.

Every other skill changes something the engine does not resolve (a move, a reroll the players choose, an action of
its own): the battle assistant lists it on the fighter's card as not applied (:func:`not_modelled`).
"""

from __future__ import annotations

import re

BERSERKER = "Berserker"
IRON_WILL = "Iron Will"
COMMANDING_PRESENCE = "Commanding Presence"
FIGHT_SKILLS = (BERSERKER,)  # the skills a fight query's fighters may carry
BOTTLE_SKILLS = (IRON_WILL,)  # a skill of a fighter in play that changes his gang's Bottle test
MODELLED = FIGHT_SKILLS + BOTTLE_SKILLS
BERSERKER_DICE = 1
IRON_WILL_MODIFIER = -1
NOT_MODELLED = "the engine does not model this skill: play it at the table"
GROUP_ACTIVATION = re.compile(r"Group Activation \((\d+)\)")


def charge_dice(skills: list[str], charging: bool) -> int:
    """The Attack dice a charge adds: one, and one more with Berserker."""
    return charging * (1 + BERSERKER_DICE * (BERSERKER in skills))


def group_activation(special_rules: list[str], skills: list[str]) -> int:
    """How many other fighters this fighter may bring along in a Group Activation: the X of his Group Activation (X)
    (0 without it), one more with Commanding Presence."""
    found = [int(m.group(1)) for rule in special_rules if (m := GROUP_ACTIVATION.fullmatch(rule.strip()))]
    if not found:
        return 0
    return max(found) + (COMMANDING_PRESENCE in skills)


def not_modelled(skills: list[str]) -> list[str]:
    """The fighter's skills whose effect the engine does not resolve (Commanding Presence counts for the assistant's
    Group Activations)."""
    return [s for s in skills if s not in MODELLED and s != COMMANDING_PRESENCE]

"""A campaign's house rules: changing them (logged, from now on), and paying what they give.

- joining: the campaign's starting credits (the difference from what the gang's house founds it with) and
  starting Reputation, for a gang that has not fought a campaign battle yet;
- after a battle: what :func:`campaigns.selectors.post_battle_payments` finds due, paid when the gang's post-battle
  sequence is applied, by the rules in force when the battle was confirmed (:func:`post_battle_credits`, called by
  ``postbattle.services.sequence_apply``: the entries carry the sequence, so a revert reverses them with the rest).

What the rules say and refuse (the rules in force, the income they replace, challenges, the Trading Post's banned
items, Hangers-on and Brutes before the first battle) are reads, in :mod:`campaigns.selectors.house_rules`.

Every credit or Reputation a rule gives is a ledger entry whose reason names the rule and since when it holds.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import (
    RULE_FIELDS,
    Campaign,
    HouseRules,
)
from campaigns.selectors.house_rules import has_fought, house_rules_due, rule_source, rule_values, rules_in_force
from campaigns.services._common import _lock
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind


@transaction.atomic
def house_rules_change(*, campaign: Campaign, actor, note: str = "", **values) -> HouseRules:
    """New house rules from now on; the earlier ones still decide what happened before (never backwards)."""
    _lock(campaign)  # two arbitrators saving at once: the second compares with the first's rules
    unknown = set(values) - set(RULE_FIELDS)
    if unknown:
        raise ValueError(f"not house rules: {', '.join(sorted(unknown))}")
    current = rules_in_force(campaign)
    wanted = {**rule_values(current), **values}
    if wanted == rule_values(current):
        raise ValidationError("These are the house rules already in force: nothing changed.")
    rules = HouseRules.objects.create(
        campaign=campaign, in_force_from=timezone.now(), changed_by=actor, note=note.strip(), **wanted
    )
    # The campaign page's header shows the starting credits: the field follows the rule.
    Campaign.objects.filter(pk=campaign.pk).update(starting_credits=rules.starting_credits)
    return rules


# --- applying ---------------------------------------------------------------------------------


def on_join(*, campaign: Campaign, gang: Gang, actor) -> None:
    """A new gang's starting credits and Reputation by the rules in force (campaigns.services.campaign_join)."""
    rules = rules_in_force(campaign)
    if has_fought(gang):
        return  # a veteran gang brings its record; the starting rules are for new gangs
    source = rule_source(rules)
    difference = rules.starting_credits - gang.house.starting_credits
    if difference:
        if gang.stash + difference < 0:
            raise ValidationError(
                f"{campaign.name} starts gangs with {rules.starting_credits} credits, {-difference} fewer than "
                f"{gang.house.name} gangs are founded with, and {gang.name} has spent them: it cannot join."
            )
        ledger_record(
            gang=gang,
            kind=LedgerKind.CREDITS,
            credits=difference,
            actor=actor,
            reason=source,
            description=f"Starting credits in {campaign.name}: {rules.starting_credits} "
            f"(founded with {gang.house.starting_credits})",
            data={"campaign": campaign.pk, "house_rule": "starting_credits"},
        )
    if rules.starting_reputation and not _has_starting_reputation(campaign, gang):  # founded for it: has it
        _starting_reputation(campaign, gang, actor, rules, f"Starting Reputation in {campaign.name}")


def on_founding(*, campaign: Campaign, gang: Gang, actor) -> None:
    """A gang founded for the campaign starts with its starting Reputation (campaigns.services.gang_found_for):
    its founding hires follow it; joining later does not give it again."""
    _starting_reputation(
        campaign, gang, actor, rules_in_force(campaign), f"Starting Reputation in {campaign.name} (founded for it)"
    )


def _has_starting_reputation(campaign: Campaign, gang: Gang) -> bool:
    return gang.ledger.filter(
        data__campaign=campaign.pk,
        data__house_rule="starting_reputation",
        reversed_by__isnull=True,
        reverses__isnull=True,
    ).exists()


def _starting_reputation(campaign: Campaign, gang: Gang, actor, rules: HouseRules, description: str) -> None:
    if rules.starting_reputation:
        ledger_record(
            gang=gang,
            kind=LedgerKind.REPUTATION,
            reputation=rules.starting_reputation,
            actor=actor,
            reason=rule_source(rules),
            description=description,
            data={"campaign": campaign.pk, "house_rule": "starting_reputation"},
        )


def post_battle_credits(*, sequence, actor) -> int:
    """Pay what the house rules give ``sequence``'s gang after its battle; returns the entries written.

    Each entry carries ``data.post_battle`` (the sequence), as the sequence's own do, so reverting the sequence
    reverses them too."""
    battle, gang = sequence.battle, sequence.gang
    rules = rules_in_force(battle.campaign, battle.confirmed_at)
    payments = house_rules_due(battle, gang)
    for payment in payments:
        ledger_record(
            gang=gang,
            kind=LedgerKind.CREDITS,
            credits=payment.credits,
            actor=actor,
            battle=battle,
            description=f"House rule: {payment.description}",
            reason=rule_source(rules),
            data={"post_battle": sequence.pk, "house_rule": payment.rule},
        )
    return len(payments)

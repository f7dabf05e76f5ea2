"""A campaign's house rules: changing them (logged, from now on), and applying each where the game reaches it.

- joining: the campaign's starting credits (the difference from what the gang's house founds it with) and
  starting Reputation, for a gang that has not fought a campaign battle yet;
- after a battle: credits for the winner and the loser, per enemy taken Out of Action, and the income
  variants, which replace the credits of the rules' income (the sequence's income step leaves them out,
  :func:`income_rule`; the territories' other boons stand), paid when the gang's post-battle sequence is applied, by the rules in force when the battle was
  confirmed (:func:`post_battle_credits`, called by ``postbattle.services.sequence_apply``: the entries carry the
  sequence, so a revert reverses them with the rest);
- challenges: the rating cap and gap (:func:`challenge_refusal`);
- the Trading Post's banned items and hiring Hangers-on and Brutes before the first battle: checks the gangs
  app asks for through :mod:`gangs.campaign_checks` (registered in ``campaigns.apps``); the buy lists leave the
  banned items out (an arbitrator sees them, bought by override).

Every credit or Reputation a rule gives is a ledger entry whose reason names the rule and since when it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import JSONField, Subquery
from django.utils import timezone

from campaigns.models import (
    RULE_FIELDS,
    Battle,
    BattleStatus,
    Campaign,
    CampaignGang,
    HouseRules,
    IncomeVariant,
    Outcome,
)
from campaigns.selectors import house_rules_history, rule_values
from campaigns.services._common import _lock
from content.models import FighterCategory
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind

ADDITIONS = (FighterCategory.HANGER_ON, FighterCategory.BRUTE)


def rules_in_force(campaign: Campaign, at: datetime | None = None) -> HouseRules:
    """The rules in force at ``at`` (now if None): the last version from before it; a campaign that never set
    any has the defaults, which change nothing (an unsaved row)."""
    versions = campaign.house_rule_versions.filter(in_force_from__lte=at or timezone.now())
    return versions.order_by("-in_force_from", "-pk").first() or _defaults(campaign)


def _defaults(campaign: Campaign) -> HouseRules:
    """The rules of a campaign that never set any: the defaults, which change nothing (an unsaved row)."""
    return HouseRules(campaign=campaign, starting_credits=campaign.starting_credits, in_force_from=campaign.created_at)


def rule_source(rules: HouseRules) -> str:
    since = "since the campaign began" if rules.pk is None else f"since {rules.in_force_from:%Y-%m-%d %H:%M} UTC"
    return f"House rule of {rules.campaign.name} ({since})"


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


def has_fought(gang: Gang) -> bool:
    """A campaign battle confirmed for the gang (its first battle is behind it)."""
    return Battle.objects.filter(status=BattleStatus.CONFIRMED).filter(attacker=gang).exists() or (
        Battle.objects.filter(status=BattleStatus.CONFIRMED, defender=gang).exists()
    )


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


@dataclass(frozen=True)
class Payment:
    rule: str  # the HouseRules field
    credits: int
    description: str


def post_battle_payments(battle: Battle, gang: Gang, held_territories: int) -> list[Payment]:
    """What the house rules in force when ``battle`` was confirmed pay ``gang`` after it (nothing if none)."""
    rules = rules_in_force(battle.campaign, battle.confirmed_at)
    out = []
    if battle.is_draw or battle.winner_id is None:
        if rules.loser_credits:
            out.append(Payment("loser_credits", rules.loser_credits, f"{rules.loser_credits} credits for a draw"))
    elif battle.winner_id == gang.pk and rules.winner_credits:
        out.append(Payment("winner_credits", rules.winner_credits, f"{rules.winner_credits} credits for the win"))
    elif battle.winner_id != gang.pk and rules.loser_credits:
        out.append(Payment("loser_credits", rules.loser_credits, f"{rules.loser_credits} credits for the loss"))
    if rules.credits_per_out_of_action:
        enemies = battle.fighter_results.exclude(fighter__gang=gang).filter(outcome=Outcome.OUT_OF_ACTION).count()
        if enemies:
            amount = enemies * rules.credits_per_out_of_action
            out.append(
                Payment(
                    "credits_per_out_of_action",
                    amount,
                    f"{amount} credits: {enemies} enemies taken Out of Action × {rules.credits_per_out_of_action}",
                )
            )
    if rules.income_variant == IncomeVariant.FLAT and rules.income_amount:
        out.append(Payment("income_amount", rules.income_amount, f"{rules.income_amount} credits flat income"))
    elif rules.income_variant == IncomeVariant.PER_TERRITORY and rules.income_amount and held_territories:
        amount = rules.income_amount * held_territories
        out.append(
            Payment(
                "income_amount",
                amount,
                f"{amount} credits income: {held_territories} territories × {rules.income_amount}",
            )
        )
    return out


def income_rule(battle: Battle) -> str:
    """The house rule in force when ``battle`` was confirmed that pays income in place of the rules' income, in
    words ("" if the rules' income stands): the post-battle sequence leaves its income credits to it."""
    rules = rules_in_force(battle.campaign, battle.confirmed_at)
    replaces = {
        IncomeVariant.PER_TERRITORY: f"{rules.income_amount} credits per territory held",
        IncomeVariant.FLAT: f"a flat {rules.income_amount} credits",
    }.get(rules.income_variant)
    return f"{rule_source(rules)}: {replaces}" if replaces else ""


def house_rules_due(battle: Battle, gang: Gang) -> list[Payment]:
    """What applying the gang's sequence will pay by the house rules (the sequence page shows it first)."""
    return post_battle_payments(battle, gang, battle.campaign.territories.filter(holder=gang).count())


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


def challenge_refusal(campaign: Campaign, challenger_rating: int, target_rating: int) -> str:
    """Why the house rules refuse a challenge between gangs of these ratings ("" if they allow it)."""
    rules = rules_in_force(campaign)
    source = rule_source(rules)
    if rules.rating_cap is not None and max(challenger_rating, target_rating) > rules.rating_cap:
        return f"{source}: no challenge to or from a gang rated above {rules.rating_cap}."
    if rules.rating_gap is not None and abs(challenger_rating - target_rating) > rules.rating_gap:
        return (
            f"{source}: the ratings ({challenger_rating} and {target_rating}) differ by more than {rules.rating_gap}."
        )
    return ""


def _campaign_of(gang: Gang) -> Campaign | None:
    membership = gang.memberships.filter(removed_at__isnull=True).select_related("campaign").first()
    return membership.campaign if membership else None


def purchase_refusal(gang: Gang, equipment) -> str:
    """For :mod:`gangs.campaign_checks`: an item the gang's campaign bans from its Trading Post."""
    campaign = _campaign_of(gang)
    if campaign is None:
        return ""
    rules = rules_in_force(campaign)
    if equipment.slug in rules.banned_items:
        return f"{rule_source(rules)}: its Trading Post does not sell {equipment.name}."
    return ""


def banned_items_expression(gang: Gang) -> Subquery:
    """For :mod:`gangs.campaign_checks`: the slugs the rules in force in the gang's campaign ban (None outside a
    campaign), as a subquery the buy list's own query reads, so leaving them out costs no query."""
    playing = CampaignGang.objects.filter(gang=gang, removed_at__isnull=True).values("campaign_id")[:1]
    rules = HouseRules.objects.filter(campaign=Subquery(playing), in_force_from__lte=timezone.now())
    return Subquery(rules.order_by("-in_force_from", "-pk").values("banned_items")[:1], output_field=JSONField())


def hire_refusal(gang: Gang, fighter_type) -> str:
    """For :mod:`gangs.campaign_checks`: a Hanger-on or Brute before the gang's first battle, if the rules say so."""
    if fighter_type.category not in ADDITIONS:
        return ""
    campaign = _campaign_of(gang)
    if campaign is None:
        return ""
    rules = rules_in_force(campaign)
    if not rules.additions_before_first_battle and not has_fought(gang):
        return f"{rule_source(rules)}: Hangers-on and Brutes join only after the gang's first battle."
    return ""


def describe(rules: HouseRules) -> list[tuple[str, str]]:
    """The rules in force, as the settings section lists them."""
    income = {
        IncomeVariant.STANDARD: "the rules' income only",
        IncomeVariant.PER_TERRITORY: f"{rules.income_amount} credits per territory held, in place of the rules' "
        "income (the territories' other boons stand)",
        IncomeVariant.FLAT: f"{rules.income_amount} credits after each battle, in place of the rules' income",
    }[rules.income_variant]
    return [
        ("Starting credits", f"{rules.starting_credits}"),
        ("Starting Reputation", f"{rules.starting_reputation}"),
        ("Credits for the winner / the loser (each in a draw)", f"{rules.winner_credits} / {rules.loser_credits}"),
        ("Credits per enemy taken Out of Action", f"{rules.credits_per_out_of_action}"),
        ("Income", income),
        (
            "Challenges",
            "; ".join(
                filter(
                    None,
                    [
                        f"no gang rated above {rules.rating_cap}" if rules.rating_cap is not None else "",
                        f"ratings at most {rules.rating_gap} apart" if rules.rating_gap is not None else "",
                    ],
                )
            )
            or "as the rules say",
        ),
        ("Banned from the Trading Post", ", ".join(rules.banned_items) or "nothing"),
        (
            "Hangers-on and Brutes before the first battle",
            "allowed" if rules.additions_before_first_battle else "not allowed",
        ),
    ]


def settings_panel(campaign: Campaign, changes: list | None = None) -> dict:
    """What the campaign page's settings section shows: the rules in force and every change (``changes``, the
    campaign's :func:`history` when the page has it already). Which version is in force is decided now, on each
    request: a change scheduled for later comes into force without a write."""
    if changes is None:
        changes = house_rules_history(
            campaign
        )  # newest first: the rules in force are the newest already in force (one query)
    now = timezone.now()
    rules = next((v for v, _ in changes if v.in_force_from <= now), None) or _defaults(campaign)
    return {"house_rules": describe(rules), "house_rules_history": changes, "house_rules_now": rules}

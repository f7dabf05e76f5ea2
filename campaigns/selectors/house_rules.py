"""A campaign's house rules as they stand and where the game reaches them: the rules in force at a moment, each
version with what it changed, what they pay after a battle, the income they put in place of the rules' income,
and what they refuse (a challenge by the ratings, an item banned from the Trading Post, a Hanger-on or Brute
before the gang's first battle). Reads only: :mod:`campaigns.services.house_rules` changes the rules and writes
what they pay.

- joining: the campaign's starting credits and Reputation are paid by the services, from :func:`rules_in_force`;
- after a battle: credits for the winner and the loser, per enemy taken Out of Action, and the income variants,
  which replace the credits of the rules' income (the sequence's income step leaves them out, :func:`income_rule`;
  the territories' other boons stand), by the rules in force when the battle was confirmed
  (:func:`post_battle_payments`; ``campaigns.services.house_rules.post_battle_credits`` pays them);
- challenges: the rating cap and gap (:func:`challenge_refusal`);
- the Trading Post's banned items and hiring Hangers-on and Brutes before the first battle: checks the gangs
  app asks for through :mod:`gangs.campaign_checks` (registered in ``campaigns.apps``); the buy lists leave the
  banned items out (an arbitrator sees them, bought by override).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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
from content.models import FighterCategory
from gangs.models import Gang


def rule_values(rules: HouseRules) -> dict:
    """The house rules of one version, by field (``campaigns.models.RULE_FIELDS``)."""
    return {name: getattr(rules, name) for name in RULE_FIELDS}


def changes_between(before: HouseRules | None, after: HouseRules) -> list[str]:
    """What a version changed, in words, for the change log."""
    labels = {f.name: f.verbose_name for f in HouseRules._meta.fields}
    old = rule_values(before) if before else {}
    return [
        f"{labels[name]}: {old.get(name, '—') if before else '—'} → {value}"
        for name, value in rule_values(after).items()
        if not before or old[name] != value
    ]


def house_rules_history(campaign: Campaign) -> list[tuple[HouseRules, list[str]]]:
    """Every version of the campaign's house rules, newest first, with what it changed from the one before."""
    versions = list(campaign.house_rule_versions.select_related("changed_by").order_by("in_force_from", "pk"))
    out = [(v, changes_between(versions[i - 1] if i else None, v)) for i, v in enumerate(versions)]
    return out[::-1]


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


def has_fought(gang: Gang) -> bool:
    """A campaign battle confirmed for the gang (its first battle is behind it)."""
    return Battle.objects.filter(status=BattleStatus.CONFIRMED).filter(attacker=gang).exists() or (
        Battle.objects.filter(status=BattleStatus.CONFIRMED, defender=gang).exists()
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
    """What applying the gang's sequence will pay by the house rules (the sequence page shows it first): per
    territory, those held when the battle was confirmed, as its income reads them (a re-run after a revert pays
    the same however the territories moved since)."""
    from campaigns.selectors.campaigns import territories_held  # that module imports this one

    return post_battle_payments(battle, gang, len(territories_held(battle, gang)))


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
    campaign's :func:`house_rules_history` when the page has it already). Which version is in force is decided now,
    on each request: a change scheduled for later comes into force without a write."""
    if changes is None:
        changes = house_rules_history(
            campaign
        )  # newest first: the rules in force are the newest already in force (one query)
    now = timezone.now()
    rules = next((v for v, _ in changes if v.in_force_from <= now), None) or _defaults(campaign)
    return {"house_rules": describe(rules), "house_rules_history": changes, "house_rules_now": rules}

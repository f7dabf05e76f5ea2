"""Writing a finished sequence to the roster, and undoing it.

:func:`effects_apply` turns the draft's effects (see :mod:`postbattle.engine`) into rows through the
gangs app's services (experience, injuries, statuses, advances, the free recruit) and
:func:`gangs.ledger.ledger_record` for credits and Reputation: every entry is linked to its battle
(``campaigns.models.BattleEntry``), carries ``data={"post_battle": <sequence id>, ...}`` and the dice that decided
it. It returns the undo record a revert needs. Both run inside the services' one transaction.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.text import slugify

from content.models import FighterType, Skill
from gangs.ledger import ledger_record
from gangs.models import (
    GONE,
    Advancement,
    Fighter,
    FighterStatus,
    Injury,
    LedgerEntry,
    LedgerKind,
    Purchase,
)
from gangs.services import (
    advancement_record,
    chem_dose_use,
    experience_award,
    fighter_hire,
    fighter_status_set,
    injury_record,
)
from postbattle.models import Sequence
from rulebook.outcomes import (
    Advance,
    ChemUsed,
    CreditsChange,
    ExperienceAward,
    LastingInjury,
    ReputationChange,
    StatusChange,
    TradingPostLevel,
    outcome_from_json,
)
from rulebook.outcomes import Recruit as RecruitOutcome


class _Writer:
    def __init__(self, sequence: Sequence, actor):
        self.sequence = sequence
        self.actor = actor
        self.link = {"battle": sequence.battle, "data": {"post_battle": sequence.pk}}
        self.undo = {"fighters": {}, "injuries": [], "advancements": [], "kit": {}, "recruits": []}
        ids = {
            int(e["fighter"])
            for step in sequence.draft.get("steps", {}).values()
            for e in step["effects"]
            if e.get("fighter")
        }
        self.fighters = Fighter.objects.select_related("gang").in_bulk(ids)

    def fighter(self, effect) -> Fighter:
        return self.fighters[int(effect.fighter)]

    def _skill(self, fighter: Fighter, name: str, table: str | None = None) -> Skill | None:
        """The content library's skill of that name (None if it lacks it: the name stays in the account)."""
        found = Skill.objects.filter(edition=fighter.gang.edition, name=name)
        return (found.filter(table__name=table) if table else found).order_by("pk").first()

    # --- one method per effect ---------------------------------------------------------------

    def xp(self, effect: ExperienceAward) -> None:
        experience_award(
            fighter=self.fighter(effect),
            amount=effect.amount,
            actor=self.actor,
            reason=effect.reason,
            dice=effect.dice,
            **self.link,
        )

    def credits(self, effect: CreditsChange) -> None:
        ledger_record(
            gang=self.sequence.gang,
            kind=LedgerKind.CREDITS,
            credits=effect.amount,
            actor=self.actor,
            description=f"{effect.amount:+d} credits",
            reason=effect.reason,
            dice=effect.dice,
            **self.link,
        )

    def reputation(self, effect: ReputationChange) -> None:
        ledger_record(
            gang=self.sequence.gang,
            kind=LedgerKind.REPUTATION,
            reputation=effect.amount,
            actor=self.actor,
            description=f"{effect.amount:+d} Reputation",
            reason=effect.reason,
            dice=effect.dice,
            **self.link,
        )

    def injury(self, effect: LastingInjury) -> None:
        fighter = self.fighter(effect)
        skills = [skill for name in effect.skills if (skill := self._skill(fighter, name))]
        injury = injury_record(
            fighter=fighter,
            code=effect.code or slugify(effect.name),
            name=effect.name,
            roll=effect.roll,
            stat_deltas=effect.deltas,
            notes="; ".join(effect.notes),
            skills=skills,
            reason=effect.reason,
            dice=effect.dice,
            actor=self.actor,
            **self.link,
        )
        self.undo["injuries"].append(injury.pk)

    def chem(self, effect: ChemUsed) -> None:
        used = chem_dose_use(
            fighter=self.fighter(effect),
            slug=effect.chem,
            actor=self.actor,
            reason=effect.reason,
            dice=effect.dice,
            **self.link,
        )
        # A revert gives the dose back where it was (the fighter's, or the Stash's).
        self.undo["kit"][str(used.pop("pk"))] = used

    def status(self, effect: StatusChange) -> None:
        fighter = self.fighter(effect)
        if effect.captive and not (
            fighter.status == FighterStatus.CAPTURED and fighter.captured_by_id == self.sequence.gang_id
        ):
            # Rescued (or otherwise gone) since the step was rolled: the captors no longer hold them.
            raise ValidationError(f"{fighter.name} is no longer held captive: go back to the post-battle actions.")
        self.undo["fighters"].setdefault(
            str(fighter.pk), {"status": fighter.status, "captured_by": fighter.captured_by_id}
        )
        if effect.status in GONE:
            # The kit leaves with the fighter (to the Stash, or lost: fighter_status_set's rule); a revert gives it back.
            for item in fighter.purchases.values("pk", "equipment_id", "price"):
                self.undo["kit"][str(item.pop("pk"))] = {**item, "fighter": fighter.pk}
        fighter_status_set(
            fighter=fighter,
            status=effect.status,
            captured_by_id=effect.captured_by,
            reason=effect.reason,
            dice=effect.dice,
            actor=self.actor,
            **self.link,
        )

    def _recruit_type(self, effect: RecruitOutcome) -> FighterType | None:
        """The house list's first fighter of the category, or the named fighter type the gang may recruit (a
        Hanger-on from the gang additions: ``recruited_by`` empty, or naming the gang's house)."""
        gang = self.sequence.gang
        if not effect.fighter_type:
            listed = gang.house.fighter_types.filter(category=effect.category, is_active=True)
            return listed.order_by("order", "pk").first()
        named = FighterType.objects.filter(
            edition=gang.edition, name=effect.fighter_type, category=effect.category, is_active=True
        )
        return next((t for t in named.order_by("pk") if not t.recruited_by or gang.house.slug in t.recruited_by), None)

    def recruit(self, effect: RecruitOutcome) -> None:
        gang = self.sequence.gang
        fighter_type = self._recruit_type(effect)
        if fighter_type is None:
            missing = effect.fighter_type or effect.category
            ledger_record(
                gang=gang,
                kind=LedgerKind.OTHER,
                description=f"No {missing} on the house list to recruit",
                reason=effect.reason,
                dice=effect.dice,
                actor=self.actor,
                **self.link,
            )
            return
        hired = fighter_hire(
            gang=gang,
            fighter_type=fighter_type,
            name=effect.name,
            actor=self.actor,
            free_reason=f"Free recruit: {effect.reason}",
            override_reason=f"Free recruit: {effect.reason}",
            granted_by_rule=True,
            **self.link,
        )
        self.undo["recruits"].append(hired.pk)

    def trade(self, effect: TradingPostLevel) -> None:
        """The Trade action's Availability Level, a ledger entry with its dice: what the gang's Trading Post offers
        until its next battle (``gangs.selectors.trading_post_level``); a revert reverses it."""
        ledger_record(
            gang=self.sequence.gang,
            kind=LedgerKind.OTHER,
            reason=effect.reason,
            dice=effect.dice,
            description=f"Trading Post: Availability Level {effect.level} (Rare and Illegal items up to "
            f"{effect.level} until the next battle)",
            actor=self.actor,
            battle=self.link["battle"],
            data={**self.link["data"], "trading_post": effect.level},
        )

    def advance(self, effect: Advance) -> None:
        fighter = self.fighter(effect)
        skill = None if effect.stat else self._skill(fighter, effect.skill, effect.table)
        if skill is not None and fighter.skills.filter(skill=skill).exists():
            skill = None  # already known: the advance and its account stand without a second copy
        kind = Advancement.Kind.CHARACTERISTIC if effect.stat else Advancement.Kind.SKILL
        advancement = advancement_record(
            fighter=fighter,
            kind=kind,
            description=effect.description,
            stat=effect.stat or None,
            delta=1 if effect.stat else 0,
            skill=skill,
            reason=effect.reason,
            dice=effect.dice,
            actor=self.actor,
            **self.link,
        )
        self.undo["advancements"].append(advancement.pk)


def effects_apply(sequence: Sequence, *, step_slugs, actor) -> dict:
    """Write every outcome of the draft's steps, in order; return the undo record."""
    writer = _Writer(sequence, actor)
    for slug in step_slugs:
        for effect in sequence.draft["steps"][slug]["effects"]:
            match outcome_from_json(effect):
                case ExperienceAward() as award:
                    writer.xp(award)
                case CreditsChange() as change:
                    writer.credits(change)
                case ReputationChange() as change:
                    writer.reputation(change)
                case LastingInjury() as injury:
                    writer.injury(injury)
                case StatusChange() as change:
                    writer.status(change)
                case RecruitOutcome() as recruit:
                    writer.recruit(recruit)
                case Advance() as advance:
                    writer.advance(advance)
                case TradingPostLevel() as level:
                    writer.trade(level)
                case ChemUsed() as used:
                    writer.chem(used)
    return writer.undo


def effects_revert(sequence: Sequence, undo: dict, *, actor) -> int:
    """Reverse every entry the sequence wrote (newest first) and restore the roster; returns the count."""
    base = {"post_battle": sequence.pk, "revert": True}
    # The battle's key first: it is indexed, so the JSON key is read on that battle's entries only.
    entries = LedgerEntry.objects.filter(
        battle_link__battle=sequence.battle_id, data__post_battle=sequence.pk, reverses__isnull=True
    ).select_related("gang", "fighter")
    count = 0
    for entry in entries.order_by("-created_at", "-pk"):
        ledger_record(
            gang=entry.gang,
            fighter=entry.fighter,
            kind=entry.kind,
            credits=-entry.credits,
            experience=-entry.experience,
            reputation=-entry.reputation,
            actor=actor,
            reverses=entry,
            description=f"Reverted: {entry.description}",
            reason="Post-battle sequence reverted by an arbitrator",
            data=base,
            battle=sequence.battle,
        )
        count += 1
    Advancement.objects.filter(pk__in=undo.get("advancements", [])).delete()
    Injury.objects.filter(pk__in=undo.get("injuries", [])).delete()
    for pk, item in undo.get("kit", {}).items():
        # Kit sent to the Stash goes back to its fighter; kit lost with a classic death is bought back as it was.
        if not Purchase.objects.filter(pk=int(pk)).update(fighter_id=item["fighter"]):
            Purchase.objects.create(
                gang=sequence.gang, fighter_id=item["fighter"], equipment_id=item["equipment_id"], price=item["price"]
            )
    for pk, before in undo.get("fighters", {}).items():
        Fighter.objects.filter(pk=int(pk)).update(status=before["status"], captured_by_id=before["captured_by"])
    # A recruit the sequence hired leaves again; its entries were reversed above and stay in the history.
    Fighter.objects.filter(pk__in=undo.get("recruits", [])).update(status=FighterStatus.RETIRED)
    return count

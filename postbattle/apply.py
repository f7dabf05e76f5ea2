"""Writing a finished sequence to the roster, and undoing it.

:func:`effects_apply` turns the draft's effects (see :mod:`postbattle.engine`) into rows: every
credit, experience and Reputation change goes through :func:`gangs.ledger.ledger_record` with
``data={"battle": <id>, "post_battle": <sequence id>, ...}`` and the dice that decided it; injuries,
stat changes, skills, advances and statuses are rows of the gangs app, each with its ledger entry.
It returns the undo record a revert needs. Both run inside the services' one transaction.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.text import slugify

from content.models import Skill
from gangs.ledger import ledger_record
from gangs.models import (
    Advancement,
    Fighter,
    FighterSkill,
    FighterStatus,
    Injury,
    LedgerEntry,
    LedgerKind,
    Purchase,
    StatChange,
    StatChangeSource,
)
from gangs.services import fighter_hire
from postbattle.models import Sequence

GONE = (FighterStatus.DEAD, FighterStatus.RETIRED)


class _Writer:
    def __init__(self, sequence: Sequence, actor):
        self.sequence = sequence
        self.actor = actor
        self.base = {"battle": sequence.battle_id, "post_battle": sequence.pk}
        self.undo = {"fighters": {}, "injuries": [], "advancements": [], "skills": [], "purchases": {},
                     "recruits": [], "entries": []}  # fmt: skip
        ids = {int(e["fighter"]) for step in sequence.draft.get("steps", {}).values()
               for e in step["effects"] if e.get("fighter")}  # fmt: skip
        self.fighters = Fighter.objects.select_related("gang").in_bulk(ids)

    def record(self, *, fighter: Fighter | None = None, **fields) -> LedgerEntry:
        gang = fighter.gang if fighter is not None else self.sequence.gang
        data = {**self.base, **fields.pop("data", {})}
        return ledger_record(gang=gang, fighter=fighter, actor=self.actor, data=data, **fields)

    def fighter(self, effect: dict) -> Fighter:
        return self.fighters[int(effect["fighter"])]

    # --- one method per effect ---------------------------------------------------------------

    def xp(self, effect: dict) -> None:
        fighter = self.fighter(effect)
        self.record(fighter=fighter, kind=LedgerKind.EXPERIENCE, experience=effect["amount"],
                    description=f"{fighter.name} {effect['amount']:+d} XP", reason=effect["reason"],
                    dice=effect["dice"])  # fmt: skip

    def credits(self, effect: dict) -> None:
        self.record(kind=LedgerKind.CREDITS, credits=effect["amount"], description=f"{effect['amount']:+d} credits",
                    reason=effect["reason"], dice=effect["dice"])  # fmt: skip

    def reputation(self, effect: dict) -> None:
        self.record(kind=LedgerKind.REPUTATION, reputation=effect["amount"],
                    description=f"{effect['amount']:+d} Reputation", reason=effect["reason"], dice=effect["dice"])  # fmt: skip

    def injury(self, effect: dict) -> None:
        fighter = self.fighter(effect)
        code = effect["code"] or slugify(effect["name"])
        injury = Injury.objects.create(fighter=fighter, code=code, name=effect["name"], roll=effect["roll"],
                                       effects={**effect["deltas"], **({"notes": effect["notes"]} if effect["notes"] else {})})  # fmt: skip
        self.undo["injuries"].append(injury.pk)
        for stat, delta in effect["deltas"].items():
            if delta:
                StatChange.objects.create(fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.INJURY,
                                          injury=injury)  # fmt: skip
        for name in effect["skills"]:
            self._skill(fighter, name, injury=injury)
        self.record(fighter=fighter, kind=LedgerKind.INJURY, description=f"{fighter.name}: {effect['name']}"
                    + (f" ({effect['roll']})" if effect["roll"] else ""), reason=effect["reason"], dice=effect["dice"],
                    data={"injury": injury.pk, "code": code, "stat_deltas": effect["deltas"]})  # fmt: skip

    def _skill(self, fighter: Fighter, name: str, *, injury=None, advancement=None, table: str | None = None) -> None:
        found = Skill.objects.filter(edition=fighter.gang.edition, name=name)
        found = found.filter(table__name=table) if table else found
        skill = found.order_by("pk").first()
        if skill is None or fighter.skills.filter(skill=skill).exists():
            return  # a skill the content library lacks stays in the injury's notes and the account
        self.undo["skills"].append(
            FighterSkill.objects.create(fighter=fighter, skill=skill, injury=injury, advancement=advancement).pk
        )

    def status(self, effect: dict) -> None:
        fighter = self.fighter(effect)
        self.undo["fighters"].setdefault(
            str(fighter.pk), {"status": fighter.status, "captured_by": fighter.captured_by_id}
        )
        old = fighter.get_status_display()
        fighter.status, fighter.captured_by_id = effect["status"], effect.get("captured_by")
        fighter.save(update_fields=["status", "captured_by"])
        moved = []
        if fighter.status in GONE:
            moved = list(fighter.purchases.values_list("pk", flat=True))
            self.undo["purchases"].update({str(pk): fighter.pk for pk in moved})
            fighter.purchases.update(fighter=None)
        self.record(fighter=fighter, kind=LedgerKind.STATUS, reason=effect["reason"], dice=effect["dice"],
                    description=f"{fighter.name}: {old} → {fighter.get_status_display()}"
                    + (f"; {len(moved)} items to the Stash" if moved else ""),
                    data={"status": fighter.status, "captured_by": fighter.captured_by_id, "purchases_to_stash": moved})  # fmt: skip

    def recruit(self, effect: dict) -> None:
        gang = self.sequence.gang
        fighter_type = gang.house.fighter_types.filter(category=effect["category"], is_active=True).order_by("order", "pk").first()  # fmt: skip
        if fighter_type is None:
            self.record(kind=LedgerKind.OTHER, description=f"No {effect['category']} on the house list to recruit",
                        reason=effect["reason"], dice=effect["dice"])  # fmt: skip
            return
        # The Home Settlement pays for the recruit, so the hire service's price nets to nothing.
        self.record(kind=LedgerKind.CREDITS, credits=fighter_type.cost, reason=effect["reason"], dice=effect["dice"],
                    description=f"Free {fighter_type.name} from the Home Settlement: the hire is paid for")  # fmt: skip
        hired = fighter_hire(gang=gang, fighter_type=fighter_type, name=effect["name"], actor=self.actor,
                             override_reason="Free recruit from the Home Settlement")  # fmt: skip
        self.undo["recruits"].append(hired.pk)
        self.undo["entries"] += list(LedgerEntry.objects.filter(fighter=hired).values_list("pk", flat=True))

    def advance(self, effect: dict) -> None:
        fighter = self.fighter(effect)
        kind = Advancement.Kind.CHARACTERISTIC if effect["stat"] else Advancement.Kind.SKILL
        advancement = Advancement.objects.create(fighter=fighter, kind=kind, description=effect["description"],
                                                 dice=effect["dice"])  # fmt: skip
        self.undo["advancements"].append(advancement.pk)
        if effect["stat"]:
            StatChange.objects.create(fighter=fighter, stat=effect["stat"], delta=1,
                                      source=StatChangeSource.ADVANCEMENT, advancement=advancement)  # fmt: skip
        else:
            self._skill(fighter, effect["skill"], advancement=advancement, table=effect["table"])
        self.record(fighter=fighter, kind=LedgerKind.ADVANCEMENT, description=f"{fighter.name}: {effect['description']}",
                    reason=effect["reason"], dice=effect["dice"], data={"advancement": advancement.pk})  # fmt: skip


def effects_apply(sequence: Sequence, *, step_slugs, actor) -> dict:
    """Write every effect of the draft's steps, in order; return the undo record."""
    writer = _Writer(sequence, actor)
    for slug in step_slugs:
        for effect in sequence.draft["steps"][slug]["effects"]:
            getattr(writer, effect["op"])(effect)
    return writer.undo


def effects_revert(sequence: Sequence, undo: dict, *, actor) -> int:
    """Reverse every entry the sequence wrote (newest first) and restore the roster; returns the count."""
    base = {"battle": sequence.battle_id, "post_battle": sequence.pk, "revert": True}
    mine = Q(data__post_battle=sequence.pk) | Q(pk__in=undo.get("entries", []))
    entries = LedgerEntry.objects.filter(mine, reverses__isnull=True).select_related("gang", "fighter")
    count = 0
    for entry in entries.order_by("-created_at", "-pk"):
        ledger_record(gang=entry.gang, fighter=entry.fighter, kind=entry.kind, credits=-entry.credits,
                      experience=-entry.experience, reputation=-entry.reputation, actor=actor, reverses=entry,
                      description=f"Reverted: {entry.description}", reason="Post-battle sequence reverted by an arbitrator",
                      data=base)  # fmt: skip
        count += 1
    Advancement.objects.filter(pk__in=undo.get("advancements", [])).delete()
    Injury.objects.filter(pk__in=undo.get("injuries", [])).delete()
    FighterSkill.objects.filter(pk__in=undo.get("skills", [])).delete()
    for purchase, fighter in undo.get("purchases", {}).items():
        Purchase.objects.filter(pk=int(purchase)).update(fighter_id=fighter)
    for pk, before in undo.get("fighters", {}).items():
        Fighter.objects.filter(pk=int(pk)).update(status=before["status"], captured_by_id=before["captured_by"])
    # A recruit the sequence hired leaves again; its entries were reversed above and stay in the history.
    Fighter.objects.filter(pk__in=undo.get("recruits", [])).update(status=FighterStatus.RETIRED)
    return count

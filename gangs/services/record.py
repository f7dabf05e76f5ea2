"""The owner's record between battles: experience, kills, a Lasting Injury, a status change and notes,
each undone from the history by :mod:`gangs.services.undo`.

A player who plays outside a campaign keeps the same record the post-battle sequence writes, through
the same rules: a Lasting Injury (2018+) or Serious Injury (classic) is resolved by the edition's
injury table in ``rulebook`` (:class:`rulebook.roster.InjuryRules`), never by what a form says it does.
Three ways to get the result, as at a real table: the server rolls it, the player types the dice rolled
at the table, or the player picks the row with a reason (a result agreed at the table); any further
dice the row asks for (Multiple Injuries, Lesson Learned) are the server's in the last case.

Every action writes one or more ledger entries sharing ``data["record"]``, the token of the form that
sent it: the same token twice is refused, so a form sent twice never rolls twice; an undo reverses every
entry of one action. A server die is final: the next server-rolled injury of a fighter re-uses the dice
of an undone one, so undoing cannot fish for a better result.

Who may write: :func:`gangs.permissions.record_keeper` (the owner outside a campaign, the campaign's
arbitrator inside one); the views decide, and these functions refuse only an owner writing their own
gang's record inside a campaign (:func:`gangs.services.common.require_impartial`), whoever else arbitrates.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from content.models import Edition, Skill
from gangs.ledger import ledger_record
from gangs.models import GONE, Fighter, FighterStatus, Gang, LedgerEntry
from gangs.models import LedgerKind as Kind
from gangs.selectors.record import INJURY_RULES
from gangs.services.common import ReusedDice, refuse, require_impartial, require_on_roster, rolls_since
from gangs.services.fighters import experience_award, fighter_status_set, injury_record
from gangs.stats import fighter_snapshot
from rulebook.dice import RandomDice, ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import CRITICAL_INJURY
from rulebook.n18.campaign.post_battle import untreated_critical_injury
from rulebook.outcomes import ExperienceAward, LastingInjury, StatusChange, injury_outcomes
from rulebook.roster import InjuryOutcome, InjuryRules

# Statuses the owner may set by hand, by edition. Classic has no Recovery or Convalescence: a classic
# fighter either plays, is held by another gang, or is dead (S3 p84). Retired has its own button.
SETTABLE_STATUSES = {
    Edition.N18: (
        FighterStatus.ACTIVE,
        FighterStatus.RECOVERY,
        FighterStatus.CONVALESCENCE,
        FighterStatus.CAPTURED,
        FighterStatus.DEAD,
    ),
    Edition.CLASSIC: (FighterStatus.ACTIVE, FighterStatus.CAPTURED, FighterStatus.DEAD),
}


class InjuryMode:
    ROLL = "roll"
    ENTERED = "entered"
    CHOSEN = "chosen"


# --- guards ----------------------------------------------------------------------------------------


def _lock(fighter: Fighter) -> Fighter:
    """The fighter row locked for the rest of the transaction, so two requests cannot both act on it."""
    Fighter.objects.select_for_update(of=("self",)).only("pk").get(pk=fighter.pk)
    fighter.refresh_from_db()
    return fighter


def _fresh_token(gang: Gang, token: str) -> None:
    if not token:
        raise ValidationError("The form is missing its token; reload the page and try again.")
    if LedgerEntry.objects.filter(gang=gang, data__record=token).exists():
        raise ValidationError("This was already recorded (the form was sent twice); see the history.")


def _entry(fighter: Fighter, token: str, **fields) -> LedgerEntry:
    data = {"record": token, **fields.pop("data", {})}
    return ledger_record(gang=fighter.gang, fighter=fighter, data=data, **fields)


# --- experience, kills, notes ----------------------------------------------------------------------


@transaction.atomic
def record_experience(*, fighter: Fighter, amount: int, reason: str, actor, token: str) -> LedgerEntry:
    """Experience gained in a battle played outside a campaign (or any agreed award), with why."""
    fighter = _lock(fighter)
    require_impartial(gang=fighter.gang, actor=actor, what="The fighter's record")
    _fresh_token(fighter.gang, token)
    if amount < 1:
        raise ValidationError("Record experience gained as 1 or more; undo an entry to take experience away.")
    if not reason.strip():
        raise ValidationError("Say why the experience was gained (the battle, the rule).")
    return _entry(
        fighter,
        token,
        kind=Kind.EXPERIENCE,
        experience=amount,
        actor=actor,
        reason=reason.strip(),
        description=f"{fighter.name} +{amount} XP",
    )


@transaction.atomic
def record_kills(*, fighter: Fighter, count: int, reason: str, actor, token: str) -> LedgerEntry:
    fighter = _lock(fighter)
    require_impartial(gang=fighter.gang, actor=actor, what="The fighter's record")
    _fresh_token(fighter.gang, token)
    if count < 1:
        raise ValidationError("Record 1 or more kills; undo an entry to take kills away.")
    Fighter.objects.filter(pk=fighter.pk).update(kills=fighter.kills + count)
    return _entry(
        fighter,
        token,
        kind=Kind.OTHER,
        actor=actor,
        reason=reason.strip(),
        data={"kills": count},
        description=f"{fighter.name}: {count} kill{'s' if count != 1 else ''} ({fighter.kills + count} in all)",
    )


@transaction.atomic
def record_notes(*, fighter: Fighter, notes: str, actor, token: str = "") -> LedgerEntry | None:
    """Replace the fighter's notes; the entry keeps the old text, so the change can be undone. None: no change."""
    fighter = _lock(fighter)
    notes = notes.strip()
    if notes == fighter.notes:
        return None
    if token:
        _fresh_token(fighter.gang, token)
    token = token or uuid.uuid4().hex  # the notes form needs none: saving the same text twice changes nothing
    before = fighter.notes
    Fighter.objects.filter(pk=fighter.pk).update(notes=notes)
    return _entry(
        fighter,
        token,
        kind=Kind.OTHER,
        actor=actor,
        data={"notes": notes, "notes_before": before},
        description=f"{fighter.name}: notes changed",
    )


# --- status ----------------------------------------------------------------------------------------


@transaction.atomic
def record_status(*, fighter: Fighter, status: str, reason: str, actor, token: str, captor=None) -> LedgerEntry:
    """Recovery, Convalescence, Captured (by ``captor``, a rival gang of the campaign: a capture always has its
    captor), Dead or back to Active, with why (kit leaves the dead as in
    :func:`gangs.services.fighters.fighter_status_set`)."""
    fighter = _lock(fighter)
    require_impartial(gang=fighter.gang, actor=actor, what="The fighter's record")
    _fresh_token(fighter.gang, token)
    allowed = SETTABLE_STATUSES[fighter.gang.edition]
    if status not in allowed:
        names = ", ".join(FighterStatus(s).label for s in allowed)
        raise ValidationError(f"A fighter's status can be set to {names}.")
    if fighter.status in GONE:
        raise ValidationError(
            f"{fighter.name} is {fighter.get_status_display()}; undo the entry that made them so instead."
        )
    if status == fighter.status:
        raise ValidationError(f"{fighter.name} is already {fighter.get_status_display()}.")
    if not reason.strip():
        raise ValidationError("Say why the status changes (the battle, the injury, the rescue).")
    in_campaign = fighter.gang.memberships.filter(removed_at__isnull=True).exists()
    if status == FighterStatus.CAPTURED and in_campaign and (captor is None or captor.pk == fighter.gang_id):
        # In a campaign a capture always has its captor (issue 21); a roster kept outside one may not know it.
        raise ValidationError(f"Say which rival gang holds {fighter.name} captive.")
    return _status(fighter, status, reason.strip(), actor, token, captor=captor)


def _status(
    fighter: Fighter, status: str, reason: str, actor, token: str, link: dict | None = None, captor=None
) -> LedgerEntry:
    before = {**(link or {}), "status_before": fighter.status, "captured_by_before": fighter.captured_by_id}
    fighter_status_set(
        fighter=fighter,
        status=status,
        reason=reason,
        actor=actor,
        data={**before, "record": token},
        captured_by_id=captor.pk if captor is not None and status == FighterStatus.CAPTURED else None,
    )
    return LedgerEntry.objects.filter(fighter=fighter, kind=Kind.STATUS).latest("pk")


# --- Lasting Injury ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class InjuryRecorded:
    entries: list[LedgerEntry]
    outcome: InjuryOutcome


def _reused_dice(fighter: Fighter) -> tuple[list, LedgerEntry | None]:
    """The dice of this fighter's latest undone server-rolled injury not yet rolled again, and its undo entry."""
    undone = (
        LedgerEntry.objects.filter(fighter=fighter, data__undo_of_rolled_injury=True)
        .exclude(pk__in=_reused_undo_entries(fighter))
        .order_by("-pk")
        .first()
    )
    return ([d["value"] for d in undone.data["rolled_dice"]], undone) if undone else ([], None)


def _reused_undo_entries(fighter: Fighter) -> list[int]:
    return [
        entry.data["reuses"]
        for entry in LedgerEntry.objects.filter(fighter=fighter, data__has_key="reuses").only("data")
    ]


def _resolve(rules: InjuryRules, fighter: Fighter, mode: str, dice: list | None, slug: str):
    snapshot = fighter_snapshot(fighter, statuses=rules.status_rank)
    extra: dict = {}
    if mode == InjuryMode.ROLL:
        values, undo = _reused_dice(fighter)
        source = ReusedDice(values)
        if undo is not None:
            extra["reuses"] = undo.pk
        extra["server_rolled"] = True
        return rules.roll(snapshot, source), source, extra
    if mode == InjuryMode.ENTERED:
        if not dice:
            raise ValidationError("Type the dice rolled at the table, tens die first (e.g. 3 5).")
        source = ScriptedDice(dice)
        outcome = rules.roll(snapshot, source)
        if source.remaining:
            raise ValidationError(
                f"{source.remaining} of the dice typed were not needed: this result takes {len(dice) - source.remaining}."
            )
        return outcome, source, extra
    try:
        row = rules.row_for_slug(slug)
    except StopIteration:
        raise ValidationError("Choose a result from the table.") from None
    source = RandomDice()  # only for further dice the chosen row asks for
    extra["chosen"] = slug
    return rules.apply(snapshot, row.low, source), source, extra


@transaction.atomic
def record_lasting_injury(
    *, fighter: Fighter, mode: str, actor, token: str, reason: str = "", dice: list | None = None, slug: str = ""
) -> InjuryRecorded:
    """Resolve a Lasting Injury (2018+) or Serious Injury (classic) with the edition's table and write it:
    the injury with its characteristic changes and skills, experience it gives, and the status it leaves.

    A Critical Injury outside the post-battle sequence has no Medical Escort to save the fighter, so it is
    read as untreated (Dead); a fighter who did see a Doc is recorded by choosing the Doc's result instead.
    """
    fighter = _lock(fighter)
    require_impartial(gang=fighter.gang, actor=actor, what="The fighter's record")
    _fresh_token(fighter.gang, token)
    require_on_roster(fighter, "take a Lasting Injury")
    if mode not in (InjuryMode.ROLL, InjuryMode.ENTERED, InjuryMode.CHOSEN):
        raise ValidationError("Choose how the injury was rolled.")
    if mode == InjuryMode.CHOSEN and not reason.strip():
        raise ValidationError("A result chosen from the table needs a reason (who agreed it, and why).")
    rules = INJURY_RULES[fighter.gang.edition]
    try:
        outcome, source, extra = _resolve(rules, fighter, mode, dice, slug)
        if outcome.fighter.status == CRITICAL_INJURY:
            critical = untreated_critical_injury(outcome.fighter)
            outcome = InjuryOutcome(critical.fighter, outcome.changes + critical.changes, outcome.results)
    except RulesInputError as error:
        raise refuse(error) from None
    how = {
        InjuryMode.ROLL: "rolled by the server",
        InjuryMode.ENTERED: "dice rolled at the table",
        InjuryMode.CHOSEN: f"chosen from the table: {reason.strip()}",
    }[mode]
    rolled = rolls_since(source, 0)
    link = {**extra, "mode": mode, "rolled_dice": rolled}
    return InjuryRecorded(_write_injury(fighter, outcome, rules, how, actor, token, rolled, link), outcome)


def _write_injury(fighter, outcome: InjuryOutcome, rules, how: str, actor, token: str, rolled: list, link: dict):
    """The result's typed outcomes (:func:`rulebook.outcomes.injury_outcomes`, as the post-battle sequence reads
    them) written through the gangs services the sequence's :mod:`postbattle.apply` uses: an injury per table
    result that leaves a mark (its characteristic changes stored once, as the fighter's ``StatChange`` rows), the
    experience it gives and the status it leaves."""
    title = rules.table.title
    data = {**link, "record": token}
    entries: list[LedgerEntry] = []
    skills = {s.name: s for s in Skill.objects.filter(edition=fighter.gang.edition)}
    for effect in injury_outcomes(str(fighter.pk), outcome, rule=title, how=how):
        match effect:
            case LastingInjury():
                injury = injury_record(
                    fighter=fighter,
                    code=effect.code,
                    name=effect.name,
                    roll=effect.roll,
                    stat_deltas=effect.deltas,
                    notes="; ".join(effect.notes),
                    skills=[skills[n] for n in effect.skills if n in skills],
                    reason=effect.reason,
                    dice=effect.dice,
                    actor=actor,
                    data=data,
                )
                entries.append(LedgerEntry.objects.filter(fighter=fighter, data__injury=injury.pk).latest("pk"))
            case ExperienceAward():
                entries.append(
                    experience_award(
                        fighter=fighter,
                        amount=effect.amount,
                        reason=effect.reason,
                        dice=effect.dice,
                        actor=actor,
                        data=data,
                    )
                )
            case StatusChange() if effect.status in FighterStatus.values:
                entries.append(_status(fighter, effect.status, effect.reason, actor, token, link))
    if not entries:
        results = ", ".join(outcome.results)
        entries.append(
            _entry(
                fighter,
                token,
                kind=Kind.INJURY,
                actor=actor,
                dice=rolled,
                data=link,
                description=f"{fighter.name}: {results}",
                reason=f"{title} ({how}): no lasting effect",
            )
        )
    return entries

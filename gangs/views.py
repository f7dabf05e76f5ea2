"""Gang pages: list, create, roster, fighter, history, print, export/import, and every change.

Each change view gets the gang through :mod:`gangs.permissions` (403 for a viewer who may only
look), validates a form, calls a service and then: for htmx, re-renders the part of the page
that changed (``page.html#fragment``); for a plain POST, redirects back to the page. An invalid
form re-renders with its errors and status 200.
"""

from __future__ import annotations

import json
import uuid
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from content.models import Edition
from core.pagination import page_of
from core.responses import add_refusal, moved
from gangs import background_import, exchange, forms, printing, services, yaktribe
from gangs.cache import FRAGMENT_SECONDS, fragment_key
from gangs.models import GONE, ON_ROSTER, FileImport, ImportKind, ImportState, Purchase
from gangs.permissions import (
    ViewedGang,
    gang_access,
    gang_for_edit,
    gang_for_view,
    record_keeper,
    require_access,
    viewed_gang,
)
from gangs.selectors import (
    RosterPage,
    classic_full_tables,
    fighter_detail,
    fighter_history,
    fighter_page,
    gang_additions,
    gang_history,
    gangs_owned_by,
    hide_unseen_campaigns,
    history_visibility,
    is_record_entry,
    lazy_roster,
    let_go_notice,
    move_targets,
    n18_full_tables,
    removal_refund,
    roster_page,
    sale_rule,
    skill_tables,
    specialist_primary_tables,
    stash_items,
    undoable,
    viewer_sees_campaign,
    with_move_to,
)
from gangs.services import record, undo
from rulebook import gang_rules
from rulebook.dice import RandomDice, entered_or_random
from rulebook.numbers import is_whole_number

PRINT_SIZES = {"a4": "A4", "letter": "Letter"}


# --- gangs -------------------------------------------------------------------------------------


@login_required
@require_GET
def gang_list(request):
    return render(request, "gangs/gang_list.html", {"gangs": gangs_owned_by(request.user)})


@login_required
def gang_create(request):
    form = forms.GangCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            gang = services.gang_create(owner=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            return moved(request, gang.get_absolute_url(), f"{gang.name} founded with {gang.stash} credits.")
    return render(request, "gangs/gang_create.html", {"form": form})


def _hire_forms(page: RosterPage, data=None, posted: str = "") -> dict:
    """The hire form (house list with Hangers-on and Brutes) and the Hired Gun form, one bound if posted.

    Unposted, each is built only when the page draws it: the hire form's fields come from the cache while the
    gang and the content are unchanged (``hire_form_cached``, gang_detail.html), and the Hired Gun form needs a
    coming campaign battle."""
    gang, access = page.gang, page.access
    additions = SimpleLazyObject(lambda: gang_additions(gang))

    def hire():
        if posted == "hire" and data.get("choose_kit"):
            # The kit step: the same choices, unbound (nothing refused yet), with the chosen type's list to tick.
            initial = {"fighter_type": data.get("fighter_type", ""), "name": data.get("name", "")}
            return forms.HireForm(
                initial=initial,
                gang=gang,
                additions=additions["roster"],
                can_override=access.is_arbitrator,
                kit_for=initial["fighter_type"],
                founding=page.founding,
            )
        return forms.HireForm(
            data if posted == "hire" else None,
            gang=gang,
            additions=additions["roster"],
            can_override=access.is_arbitrator,
            founding=page.founding,
        )

    def hired_gun():
        battles = list(page.facts.coming_battles)
        if not (battles and additions["hired"]):
            return None
        return forms.HiredGunForm(
            data if posted == "hired_gun" else None,
            hired=additions["hired"],
            battles=battles,
            can_override=access.is_arbitrator,
        )

    if posted:
        return {"hire_form": hire(), "hired_gun_form": hired_gun(), "hire_form_cached": False}
    return {
        "hire_form": SimpleLazyObject(hire),
        "hired_gun_form": SimpleLazyObject(hired_gun),
        "hire_form_cached": True,
    }


def _gang_page(request, page: RosterPage, *, partial: str = "", forms_built=None, status: int = 200):
    gang, access = page.gang, page.access
    stash = stash_items(page)
    if access.can_edit:
        _with_move_choices(stash)
    sees_campaign = viewer_sees_campaign(request.user, page)  # one question, asked once
    context = {
        "page": page,
        "gang": gang,
        "roster": lazy_roster(gang),
        "roster_key": fragment_key(gang),
        "fragment_seconds": FRAGMENT_SECONDS,
        "stash_items": stash,
        "access": access,
        "territories": list(page.facts.territories) if sees_campaign else [],
        "captives": list(page.facts.captives) if sees_campaign else [],
        "let_go": let_go_notice(page),
        "hangers_on_cap": gang_rules.hangers_on_cap(gang.reputation),
        **(forms_built or (_hire_forms(page) if access.can_edit else {})),
    }
    template = f"gangs/gang_detail.html#{partial}" if partial else "gangs/gang_detail.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def gang_detail(request, pk: int):
    return _gang_page(request, roster_page(request.user, pk))


HISTORY_PAGE_SIZE = 50  # entries a page of the gang's history; a page's size does not grow with the gang's age


@login_required
@require_GET
def gang_history_view(request, pk: int):
    # The roster's read: one query for the gang, and who the viewer is to it from what its version keeps.
    roster = roster_page(request.user, pk)
    gang, access = roster.gang, roster.access
    keeps_record = record_keeper(ViewedGang(gang, access, roster.in_campaign))[0] if access.can_edit else False
    key = fragment_key(gang)
    page = page_of(gang_history(gang), request, HISTORY_PAGE_SIZE, cached_as="gang-history:" + ":".join(map(str, key)))
    # The rows are drawn once per version, page, viewer's visibility and undo rights ({% tokencache %}); they are
    # read, hidden and marked only when the fragment is drawn.
    entries = SimpleLazyObject(
        lambda: _with_undo(hide_unseen_campaigns(list(page), request.user, gang), access, keeps_record)
    )
    context = {
        "gang": gang,
        "entries": entries,
        "page": page,
        "fragment_seconds": FRAGMENT_SECONDS,
        "history_key": [*key, page.number, *history_visibility(request.user, gang), access.can_edit, keeps_record],
    }
    template = "gangs/gang_history.html#history" if request.htmx else "gangs/gang_history.html"
    return render(request, template, context)


@login_required
@require_POST
def gang_rename(request, pk: int):
    gang = gang_for_edit(request.user, pk)
    form = forms.RenameForm(request.POST)
    if form.is_valid():
        services.gang_rename(gang=gang, name=form.cleaned_data["name"], actor=request.user)
        return moved(request, gang.get_absolute_url(), f"Renamed {gang.name}.")
    messages.error(request, "A gang needs a name of at most 80 characters.")
    return redirect(gang)


@login_required
@require_POST
def gang_override(request, pk: int):
    gang = gang_for_edit(request.user, pk)
    form = forms.OverrideForm(request.POST)
    if not gang_access(request.user, gang).is_arbitrator:
        return HttpResponse("Only an arbitrator of the gang's campaign may override.", status=403)
    if not form.is_valid():
        messages.error(
            request,
            f"An override needs whole numbers from {-forms.OVERRIDE_LIMIT} to {forms.OVERRIDE_LIMIT} and a reason.",
        )
        return redirect(gang)
    try:
        services.gang_override(gang=gang, actor=request.user, **form.cleaned_data)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(gang)
    return moved(request, gang.get_absolute_url(), "Override recorded.")


@login_required
@require_POST
def fighter_hire(request, pk: int):
    return _hire(request, pk, "hire")


@login_required
@require_POST
def hired_gun_hire(request, pk: int):
    return _hire(request, pk, "hired_gun")


def _hire(request, pk: int, posted: str):
    """Hire from the house list, a Hanger-on or Brute (``hire``), or a Hired Gun for a battle (``hired_gun``)."""
    page = roster_page(request.user, pk)
    require_access(page.access)
    gang = page.gang
    built = _hire_forms(page, request.POST, posted)
    form = built["hire_form" if posted == "hire" else "hired_gun_form"]
    if form is None:
        messages.error(request, "The gang has no coming battle to hire a Hired Gun for.")
        return redirect(gang)
    if not form.is_bound:  # the kit step: the form again, with the chosen type's list
        return _gang_page(request, page, partial="roster" if request.htmx else "", forms_built=built)
    if form.is_valid():
        values = dict(form.cleaned_data)
        if posted == "hired_gun":
            values["hired_for"] = values.pop("battle")
        try:
            fighter = services.fighter_hire(gang=gang, actor=request.user, dice=RandomDice(), **values)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            messages.success(request, f"Hired {fighter.name} for {fighter.cost} credits.")
            if not request.htmx:
                return redirect(gang)
            return _gang_page(request, roster_page(request.user, pk), partial="roster")
    return _gang_page(request, page, partial="roster" if request.htmx else "", forms_built=built)


@login_required
@require_POST
def fighter_let_go(request, pk: int, fighter_pk: int):
    """Let a Hanger-on or Brute go (the Reputation notice's action), as a ledger entry."""
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    fighter.gang = gang
    try:
        services.fighter_let_go(fighter=fighter, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{fighter.name} has left the gang.")
    if not request.htmx:
        return redirect(gang)
    return _gang_page(request, roster_page(request.user, pk), partial="roster")


# --- fighters ----------------------------------------------------------------------------------


def _fighter_forms(viewed: ViewedGang, row, keeps_record: bool, posted: dict | None = None) -> dict:
    """The forms of the fighter page, with the one that was posted (bound, maybe with errors) in place.

    Only what the services would accept is offered: no purchases for a fighter off the roster, no
    record forms for a viewer who does not keep the record, no status the fighter already has. Each is built
    when the template first draws it: a page whose fighter part comes from the cache builds none (the buy list
    alone costs a query and most of the page's time)."""
    gang, access, fighter = viewed.gang, viewed.access, row.fighter
    offered = {}
    if row.on_roster:
        offered["buy_form"] = lambda: forms.BuyForm(
            gang=gang, fighter=fighter, can_override=access.is_arbitrator, in_campaign=viewed.in_campaign
        )
    if keeps_record:
        offered.update(_record_forms(fighter, viewed.in_campaign))
    offered["rename_form"] = lambda: forms.RenameForm(initial={"name": fighter.name})
    if row.on_roster and not fighter.is_hired_gun:
        offered["copy_form"] = lambda: forms.RenameForm(auto_id="copy_%s")
    offered["notes_form"] = lambda: forms.NotesForm(initial={"notes": fighter.notes})
    if (
        gang.edition == Edition.N18
        and fighter.fighter_type.category in {*gang_rules.N18_ADVANCING_CATEGORIES, "ganger"}
        or gang.edition == Edition.CLASSIC
        and row.advances_due
    ):
        offered["advance_form"] = lambda: _advance_form(gang, fighter)
    return {**{name: SimpleLazyObject(build) for name, build in offered.items()}, **(posted or {})}


def _fighter_standing(viewed: ViewedGang, row, founding: bool | None) -> dict:
    """What the owner's controls say besides their forms: the refund of a hire taken back, or who never advances."""
    fighter = row.fighter
    # Until the gang's first battle a hire can be taken back, refunded (gangs.services.fighter_remove).
    kit = [item.purchase.price for item in [*row.weapons, *row.wargear]]
    refund = removal_refund(fighter, gang=viewed.gang, kit=kit, founding=founding) if row.on_roster else None
    # Hangers-on and Hired Guns never advance (2023 Core, Gang Additions): the page says so instead of a form.
    never = {gang_rules.HANGER_ON: "Hangers-on", gang_rules.HIRED_GUN: "Hired Guns"}.get(
        fighter.fighter_type.category, ""
    )
    return {"removal_refund": refund, "never_advances": never}


# Each form of the fighter's record, made for a fighter of a gang that plays in a campaign or not.
RECORD_FORMS = {
    "experience": ("experience_form", lambda fighter, in_campaign, data=None: forms.ExperienceForm(data, prefix="xp")),
    "kills": ("kills_form", lambda fighter, in_campaign, data=None: forms.KillsForm(data, prefix="kills")),
    "status": (
        "status_form",
        lambda fighter, in_campaign, data=None: forms.StatusForm(
            data, fighter=fighter, in_campaign=in_campaign, prefix="status"
        ),
    ),
    "injury": (
        "injury_form",
        lambda fighter, in_campaign, data=None: forms.InjuryForm(data, edition=fighter.gang.edition, prefix="injury"),
    ),
}


def _record_forms(fighter, in_campaign: bool) -> dict:
    """What makes each record form the fighter is offered (unbuilt)."""
    on_roster = fighter.status in ON_ROSTER
    return {
        name: lambda make=make: make(fighter, in_campaign)
        for what, (name, make) in RECORD_FORMS.items()
        if on_roster or what == "status" and fighter.status not in GONE
    }


def _advance_form(gang, fighter, data=None):
    if gang.edition == Edition.N18 and fighter.fighter_type.category == "ganger":
        primary = specialist_primary_tables(fighter)
        full = n18_full_tables(fighter, primary) if primary else []
        left = [table for table in primary if table not in full]
        return forms.GangerAdvanceForm(data, primary_tables=left, full_tables=full)
    standard, _, levels = skill_tables(gang.edition, fighter.fighter_type)
    if gang.edition == Edition.CLASSIC:
        full = classic_full_tables(fighter)
        left = [table for table in standard if table not in full]
        return forms.ClassicAdvanceForm(data, standard_tables=left, full_tables=full)
    return forms.N18AdvanceForm(data, fighter=fighter, access=levels)


def _with_move_choices(purchases) -> None:
    """Each purchase's move list, from its ``move_to`` (gangs.selectors): only the places ``purchase_move``
    accepts (never its own holder)."""
    for purchase in purchases:
        purchase.move_choices = forms.MoveForm.choices(purchase, purchase.move_to)


def _with_undo(entries, access, keeps_record: bool) -> list:
    """Mark the entries this viewer may undo. One action's entries (an injury and the status it caused)
    are undone together, so only its first entry carries the button."""
    first_of = {}
    for entry in reversed(entries):  # oldest first
        first_of.setdefault((entry.data or {}).get("record") or entry.pk, entry.pk)
    for entry in entries:
        allowed = keeps_record if is_record_entry(entry) else access.can_edit
        first = first_of[(entry.data or {}).get("record") or entry.pk] == entry.pk
        entry.can_undo = allowed and first and not entry.undone and undoable(entry)
    return entries


def _fighter_page(
    request, viewed: ViewedGang, fighter_pk: int, *, partial: bool = False, posted: dict | None = None, cached=False
):
    """The fighter page; ``cached``: what every viewer sees from the cache (a GET: ``gang`` read for it, with the
    content's version; after a change the gang in hand is older than the change, so it is read afresh)."""
    gang, access = viewed.gang, viewed.access
    founding = None  # after a change: asked afresh (gangs.selectors.removal_refund)
    if cached:
        page = fighter_page(gang, fighter_pk)
        row, advancements, history, founding = page.row, page.advancements, page.history, page.founding
    else:
        row, advancements = fighter_detail(gang, fighter_pk)
        history = fighter_history(row.fighter)
        with_move_to(gang, [item.purchase for item in row.weapons + row.wargear])
    keeps_record, record_refusal = record_keeper(viewed)
    context = {
        "gang": gang,
        "row": row,
        "fighter": row.fighter,
        "advancements": advancements,
        "access": access,
        "keeps_record": keeps_record,
        "record_refusal": record_refusal,
    }
    # Read, hidden and marked only when the fighter part is drawn (on a GET, once per fighter_key).
    context["history"] = SimpleLazyObject(
        lambda: _with_undo(hide_unseen_campaigns(history, request.user, gang), access, keeps_record)
    )
    if cached:
        # Everything the fighter part shows this viewer: the versions, the fighter, whether the gang fought (the
        # refund of a hire), the viewer's role and what of the history they see ({% tokencache %}).
        context["fighter_key"] = [
            *fragment_key(gang),
            fighter_pk,
            gang.fought,
            access.can_edit,
            access.is_arbitrator,
            keeps_record,
            *history_visibility(request.user, gang),
        ]
        context["fragment_seconds"] = FRAGMENT_SECONDS
    if access.can_edit:
        _with_move_choices([carried.purchase for carried in row.weapons + row.wargear])
        context.update(_fighter_standing(viewed, row, founding))
        context.update(_fighter_forms(viewed, row, keeps_record, posted))
    template = "gangs/fighter_detail.html#fighter" if partial else "gangs/fighter_detail.html"
    return render(request, template, context)


def _after_fighter_change(request, viewed: ViewedGang, fighter_pk: int, message: str, form_name: str = "", form=None):
    """htmx: the fighter part of the page again; plain POST: back to the fighter page (or it with the errors)."""
    if form is not None and form.errors:
        return _fighter_page(request, viewed, fighter_pk, partial=bool(request.htmx), posted={form_name: form})
    messages.success(request, message)
    if request.htmx:
        return _fighter_page(request, viewed, fighter_pk, partial=True)
    return redirect("gangs:fighter-detail", pk=viewed.gang.pk, fighter_pk=fighter_pk)


@login_required
@require_GET
def fighter_detail_view(request, pk: int, fighter_pk: int):
    # The gang as the roster reads it: whether it plays in a campaign and whether the viewer arbitrates it come
    # from its version's cached facts, not from subqueries built and run on every view.
    page = roster_page(request.user, pk)
    viewed = ViewedGang(page.gang, page.access, page.in_campaign)
    return _fighter_page(request, viewed, fighter_pk, cached=True)


@login_required
@require_POST
def fighter_rename(request, pk: int, fighter_pk: int):
    viewed = viewed_gang(request.user, pk, edit=True)
    fighter = get_object_or_404(viewed.gang.fighters, pk=fighter_pk)
    form = forms.RenameForm(request.POST)
    if form.is_valid():
        services.fighter_rename(fighter=fighter, name=form.cleaned_data["name"], actor=request.user)
    return _after_fighter_change(request, viewed, fighter.pk, f"Renamed {fighter.name}.", "rename_form", form)


@login_required
@require_POST
def fighter_notes(request, pk: int, fighter_pk: int):
    viewed = viewed_gang(request.user, pk, edit=True)
    fighter = get_object_or_404(viewed.gang.fighters, pk=fighter_pk)
    form = forms.NotesForm(request.POST)
    if form.is_valid():
        record.record_notes(fighter=fighter, notes=form.cleaned_data["notes"], actor=request.user)
    return _after_fighter_change(request, viewed, fighter.pk, "Notes saved.", "notes_form", form)


def _fighter_leaves(request, pk: int, fighter_pk: int, service, gone: str):
    """A fighter leaves the roster through ``service``; ``gone`` says what became of them (after the name)."""
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters, pk=fighter_pk)
    try:
        service(fighter=fighter, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{fighter.name} {gone}")
    return moved(request, gang.get_absolute_url())


@login_required
@require_POST
def fighter_retire(request, pk: int, fighter_pk: int):
    gone = "has retired; their equipment went to the Stash."
    return _fighter_leaves(request, pk, fighter_pk, services.fighter_retire, gone)


@login_required
@require_POST
def fighter_remove(request, pk: int, fighter_pk: int):
    gone = "was taken back; the credits are in the Stash again."
    return _fighter_leaves(request, pk, fighter_pk, services.fighter_remove, gone)


@login_required
@require_POST
def fighter_copy(request, pk: int, fighter_pk: int):
    """Hire another fighter of the same type with the same kit, in one step."""
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    form = forms.RenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the new fighter a name (at most 80 characters).")
        return redirect("gangs:fighter-detail", gang.pk, fighter.pk)
    try:
        copy = services.fighter_copy(fighter=fighter, name=form.cleaned_data["name"], actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("gangs:fighter-detail", gang.pk, fighter.pk)
    messages.success(request, f"Hired {copy.name}, a {copy.fighter_type.name} with {fighter.name}'s kit.")
    return redirect("gangs:fighter-detail", gang.pk, copy.pk)


def _record(fighter, what: str, data: dict, actor):
    if what == "experience":
        return record.record_experience(fighter=fighter, actor=actor, **data)
    if what == "kills":
        return record.record_kills(fighter=fighter, actor=actor, **data)
    if what == "status":
        return record.record_status(fighter=fighter, actor=actor, **data)
    return record.record_lasting_injury(
        fighter=fighter,
        actor=actor,
        token=data["token"],
        mode=data["mode"],
        dice=data["dice"],
        slug=data["result"],
        reason=data["reason"],
    )


@login_required
@require_POST
def fighter_record(request, pk: int, fighter_pk: int, what: str):
    """Experience, kills, status or a Lasting Injury for the record keeper (403 with the reason otherwise)."""
    viewed = viewed_gang(request.user, pk, edit=True)
    keeps_record, refusal = record_keeper(viewed)
    if not keeps_record:
        return HttpResponse(refusal, status=403)
    fighter = get_object_or_404(viewed.gang.fighters.select_related("fighter_type", "gang"), pk=fighter_pk)
    if what not in RECORD_FORMS:
        raise Http404
    name, make = RECORD_FORMS[what]
    form = make(fighter, viewed.in_campaign, request.POST)
    message = ""
    if form.is_valid():
        try:
            _record(fighter, what, form.cleaned_data, request.user)
            message = f"Recorded for {fighter.name}; it can be undone from the history below."
        except ValidationError as error:
            add_refusal(form, error)
    return _after_fighter_change(request, viewed, fighter.pk, message, name, form)


@login_required
@require_POST
def entry_undo(request, pk: int, entry_pk: int):
    """Undo an entry of the owner's record, a sale or a discard by a reversing entry; back where it was asked."""
    viewed = viewed_gang(request.user, pk, edit=True)
    gang = viewed.gang
    entry = get_object_or_404(gang.ledger.select_related("fighter"), pk=entry_pk)
    if is_record_entry(entry):
        keeps_record, refusal = record_keeper(viewed)
        if not keeps_record:
            return HttpResponse(refusal, status=403)
    form = forms.UndoForm(request.POST)
    form.is_valid()
    try:
        undo.entry_undo(entry=entry, actor=request.user, reason=form.cleaned_data.get("reason", ""))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Undone: {entry.description}.")
    if request.POST.get("back") == "fighter" and entry.fighter_id:
        url = reverse("gangs:fighter-detail", args=[gang.pk, entry.fighter_id])
    else:  # back to the page of the history it was asked on (page_of reads and clamps the number)
        url = reverse("gangs:gang-history", args=[gang.pk])
        if is_whole_number(request.POST.get("page")):
            url += "?" + urlencode({"page": request.POST["page"].strip()})
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _advance(gang, fighter, form, actor):
    data = form.cleaned_data
    if gang.edition == Edition.CLASSIC:
        dice = entered_or_random(data["dice"])
        return services.fighter_advance_classic(
            fighter=fighter, actor=actor, dice=dice, skill_table=data["skill_table"], any_table=data["any_table"]
        )
    if "advance" in data:
        return services.fighter_advance_n18(fighter=fighter, actor=actor, dice=RandomDice(), **data["advance"])
    dice = entered_or_random(data["dice"])
    return services.fighter_advance_n18(
        fighter=fighter, actor=actor, dice=dice, prefer=data["prefer"], random_table=data["random_table"]
    )


@login_required
@require_POST
def fighter_advance(request, pk: int, fighter_pk: int):
    viewed = viewed_gang(request.user, pk, edit=True)
    gang = viewed.gang
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    form = _advance_form(gang, fighter, request.POST)
    message = ""
    if form.is_valid():
        try:
            advancement = _advance(gang, fighter, form, request.user)
            message = f"{fighter.name}: {advancement.description}."
        except ValidationError as error:
            add_refusal(form, error)
    return _after_fighter_change(request, viewed, fighter.pk, message, "advance_form", form)


# --- equipment ---------------------------------------------------------------------------------


@login_required
@require_POST
def purchase_buy(request, pk: int, fighter_pk: int):
    viewed = viewed_gang(request.user, pk, edit=True)
    gang = viewed.gang
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    form = forms.BuyForm(
        request.POST,
        gang=gang,
        fighter=fighter,
        can_override=viewed.access.is_arbitrator,
        in_campaign=viewed.in_campaign,
    )
    message = ""
    if form.is_valid():
        try:
            purchase = services.purchase_buy(gang=gang, fighter=fighter, actor=request.user, **form.cleaned_data)
            message = f"Bought {purchase.equipment.name} for {purchase.price} credits."
        except ValidationError as error:
            add_refusal(form, error)
    return _after_fighter_change(request, viewed, fighter.pk, message, "buy_form", form)


@login_required
def stash_buy(request, pk: int):
    """Buy for the Stash from the house lists or the Trading Post (a page of its own: it lists much)."""
    gang = gang_for_edit(request.user, pk)
    access = gang_access(request.user, gang)
    form = forms.BuyForm(request.POST or None, gang=gang, can_override=access.is_arbitrator)
    if request.method == "POST" and form.is_valid():
        try:
            purchase = services.purchase_buy(gang=gang, actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            return moved(
                request,
                gang.get_absolute_url(),
                f"Bought {purchase.equipment.name} for {purchase.price} credits, into the Stash.",
            )
    return render(request, "gangs/stash_buy.html", {"gang": gang, "form": form})


def _purchase(request, viewed: ViewedGang, purchase_pk: int) -> Purchase:
    purchase = get_object_or_404(
        Purchase.objects.select_related("equipment", "fighter"), gang=viewed.gang, pk=purchase_pk
    )
    purchase.gang = viewed.gang  # one gang object for the request: the services update its Stash in place
    return purchase


def _back_from_purchase(request, viewed: ViewedGang, fighter_pk: int | None, message: str):
    """Back to the fighter the item belonged to, or to the gang page for the Stash."""
    if fighter_pk:
        return _after_fighter_change(request, viewed, fighter_pk, message)
    messages.success(request, message)
    if request.htmx:
        return _gang_page(request, roster_page(request.user, viewed.gang.pk), partial="roster")
    return redirect(viewed.gang)


def _purchase_confirm(request, pk: int, purchase_pk: int, action: str):
    """GET: what selling or discarding the item does, with a button; POST: do it. Undo is in the history."""
    viewed = viewed_gang(request.user, pk, edit=True)
    purchase = _purchase(request, viewed, purchase_pk)
    gang = purchase.gang
    if request.method == "GET":
        context = {
            "gang": gang,
            "purchase": purchase,
            "action": action,
            "sale_rule": sale_rule(gang, purchase),
        }
        return render(request, "gangs/purchase_confirm.html", context)
    fighter_pk, name = purchase.fighter_id, purchase.equipment.name
    try:
        if action == "sell":
            entry = services.purchase_sell(purchase=purchase, actor=request.user, dice=RandomDice())
            message = f"Sold {name} for {entry.credits} credits. Undo it from the history if that was a mistake."
        else:
            services.purchase_discard(purchase=purchase, actor=request.user)
            message = f"Discarded {name}. Undo it from the history if that was a mistake."
    except ValidationError as error:  # sold or discarded by another request a moment ago
        return _purchase_refused(request, purchase, fighter_pk, error)
    return _back_from_purchase(request, viewed, fighter_pk, message)


@login_required
@require_http_methods(["GET", "POST"])
def purchase_sell(request, pk: int, purchase_pk: int):
    return _purchase_confirm(request, pk, purchase_pk, "sell")


def _purchase_refused(request, purchase, fighter_pk: int | None, error: ValidationError):
    messages.error(request, " ".join(error.messages))
    return redirect(
        reverse("gangs:fighter-detail", args=[purchase.gang_id, fighter_pk])
        if fighter_pk
        else purchase.gang.get_absolute_url()
    )


@login_required
@require_http_methods(["GET", "POST"])
def purchase_discard(request, pk: int, purchase_pk: int):
    return _purchase_confirm(request, pk, purchase_pk, "discard")


@login_required
@require_POST
def purchase_move(request, pk: int, purchase_pk: int):
    viewed = viewed_gang(request.user, pk, edit=True)
    purchase = _purchase(request, viewed, purchase_pk)
    fighter_pk = purchase.fighter_id
    targets = move_targets(purchase.gang, [purchase])[purchase.pk]
    form = forms.MoveForm(request.POST, purchase=purchase, targets=targets)
    try:
        if not form.is_valid():
            names = ", ".join(label for _, label in form.fields["to"].choices) or "nobody"
            raise ValidationError(f"{purchase.equipment.name} can go to: {names}.")
        services.purchase_move(purchase=purchase, fighter=form.cleaned_data["to"], actor=request.user)
    except ValidationError as error:
        return _purchase_refused(request, purchase, fighter_pk, error)
    target = purchase.fighter.name if purchase.fighter else "the Stash"
    return _back_from_purchase(request, viewed, fighter_pk, f"Moved {purchase.equipment.name} to {target}.")


# --- print, export, import ---------------------------------------------------------------------


@login_required
@require_GET
def gang_print(request, pk: int):
    """The roster sheet; ``?cards=1`` the fighter cards, ``?cards=blank`` a sheet of blank cards; A4 or Letter."""
    page = roster_page(request.user, pk)
    gang = page.gang
    size = request.GET.get("size", "a4")
    kind = {"1": "cards", "blank": "blank"}.get(request.GET.get("cards", ""), "roster")
    roster = lazy_roster(gang)
    context = {
        "gang": gang,
        "roster": roster,
        # The sheet lists the territories held only for a viewer who may see the campaign: a key of its own.
        "roster_key": fragment_key(gang, sees_campaign := viewer_sees_campaign(request.user, page)),
        "fragment_seconds": FRAGMENT_SECONDS,
        "size": size if size in PRINT_SIZES else "a4",
        "sizes": PRINT_SIZES,
        "kind": kind,
        # Drawn only when the sheet is not in the cache (lazily, like the roster).
        **printing.sheet_parts(page, roster, kind, sees_campaign),
    }
    return render(request, "gangs/gang_print.html", context)


@login_required
@require_GET
def gang_export(request, pk: int):
    gang = gang_for_view(request.user, pk)
    response = HttpResponse(json.dumps(exchange.gang_export(gang), indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="gang-{gang.pk}.json"'
    return response


@login_required
def gang_import(request):
    form = forms.ImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            # Read one byte past the limit, never the whole upload: the parser refuses what is longer.
            raw = form.cleaned_data["file"].read(exchange.MAX_FILE_BYTES + 1)
            if background_import.in_background(ImportKind.GANG, raw):  # a large file: the worker imports it
                queued = background_import.import_queue(
                    kind=ImportKind.GANG, owner=request.user, raw=raw, token=uuid.uuid4().hex
                )
                return redirect("gangs:import-status", pk=queued.pk)
            gang = exchange.gang_import(owner=request.user, data=exchange.parse_gang_file(raw))
        except ValidationError as error:
            problems = error.messages
        else:
            return moved(request, gang.get_absolute_url(), f"Imported {gang.name}.")
    if getattr(request, "upload_refused", ""):  # core.uploads stopped reading the file: say why, not "required"
        form.errors["file"] = form.error_class([request.upload_refused])
    return render(request, "gangs/gang_import.html", {"form": form, "problems": problems})


@login_required
@require_GET
def import_status(request, pk: int):
    """A large import the worker does (gangs.background_import), seen only by who sent the file: "Importing…" (the
    page looks again every few seconds), then what it made, or every problem that refused it."""
    job = get_object_or_404(FileImport.objects.only("kind", "state", "made_url", "problems"), pk=pk, owner=request.user)
    importer = background_import.IMPORTERS[job.kind]
    if job.state == ImportState.DONE and job.made_url:
        return moved(request, job.made_url, importer.done)
    context = {
        "job": job,
        "waiting": job.state == ImportState.WAITING,
        "problems": job.problems,
        "again": importer.again,
    }
    return render(request, "gangs/import_status.html", context)


def _yaktribe_raw(form) -> bytes:
    """The YakTribe file the form gives: uploaded (read one byte past the limit, never the whole upload), pasted,
    or fetched from YakTribe by the gang's number in the address."""
    data = form.cleaned_data
    if data.get("file"):
        return data["file"].read(yaktribe.MAX_FILE_BYTES + 1)
    if data.get("text"):
        return data["text"].encode()
    gang_id = yaktribe.gang_id_from_address(data["address"])
    if gang_id is None:
        raise ValidationError("That is not a YakTribe gang's address (…/underhive/gang/name.12345/) or number.")
    return yaktribe.fetch(gang_id)


@login_required
@require_http_methods(["GET", "POST"])
def gang_import_yaktribe(request):
    """Import a YakTribe gang: the file (or its address) first, then a preview of every name placed and every
    difference no record explains, with choices for the names it could not place; confirming creates it."""
    if request.method == "POST" and "confirm" in request.POST:
        raw = request.POST.get("raw", "").encode()
        nonce = request.POST.get("nonce", "")
        choices = {k: v for k, v in request.POST.items() if k.split("-")[0] in yaktribe.CHOICE_FIELDS}
        token = yaktribe.import_token(raw, nonce)
        try:
            if background_import.in_background(ImportKind.YAKTRIBE, raw):  # a large file: the worker imports it
                queued = background_import.import_queue(
                    kind=ImportKind.YAKTRIBE, owner=request.user, raw=raw, choices=choices, token=token
                )
                return redirect("gangs:import-status", pk=queued.pk)
            gang = yaktribe.yaktribe_import(owner=request.user, raw=raw, choices=choices, token=token)
        except ValidationError as error:
            form = forms.YakTribeForm()
            return render(request, "gangs/gang_import_yaktribe.html", {"form": form, "problems": error.messages})
        return moved(request, gang.get_absolute_url(), f"Imported {gang.name} from YakTribe.")
    form = forms.YakTribeForm(request.POST or None, request.FILES or None)
    context = {"form": form, "problems": []}
    if getattr(request, "upload_refused", ""):  # core.uploads stopped reading the file: say why, not "required"
        context["problems"] = [request.upload_refused]
    elif request.method == "POST" and form.is_valid():
        try:
            raw = _yaktribe_raw(form)
            view = yaktribe.preview(yaktribe.read(yaktribe.parse_file(raw)))
        except ValidationError as error:
            context["problems"] = error.messages
        else:
            context |= {"preview": view, "raw": raw.decode(), "nonce": uuid.uuid4().hex}
    return render(request, "gangs/gang_import_yaktribe.html", context)

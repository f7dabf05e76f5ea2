"""Gang pages: list, create, roster, fighter, history, print, export/import, and every change.

Each change view gets the gang through :mod:`gangs.permissions` (403 for a viewer who may only
look), validates a form, calls a service and then: for htmx, re-renders the part of the page
that changed (``page.html#fragment``); for a plain POST, redirects back to the page. An invalid
form re-renders with its errors and status 200.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from content.models import Edition
from gangs import exchange, forms, printing, services
from gangs.cache import FRAGMENT_SECONDS, fragment_key
from gangs.models import Purchase
from gangs.permissions import gang_access, gang_for_edit, gang_for_view
from gangs.selectors import (
    coming_battles,
    fighter_detail,
    gang_additions,
    gang_history,
    gang_queryset,
    gang_territories,
    gang_with_content_version,
    gangs_owned_by,
    lazy_roster,
    let_go_notice,
    stash_items,
)
from rulebook import gang_rules
from rulebook.dice import RandomDice, ScriptedDice

PRINT_SIZES = {"a4": "A4", "letter": "Letter"}


def _fail(form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def _done(request, message: str, url: str):
    messages.success(request, message)
    return redirect(url)


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
            _fail(form, error)
        else:
            return _done(request, f"{gang.name} founded with {gang.stash} credits.", gang.get_absolute_url())
    return render(request, "gangs/gang_create.html", {"form": form})


def _hire_forms(gang, access, data=None, posted: str = "") -> dict:
    """The hire form (house list with Hangers-on and Brutes) and the Hired Gun form, one bound if posted."""
    additions, battles = gang_additions(gang), coming_battles(gang)
    hire = forms.HireForm(
        data if posted == "hire" else None, gang=gang, additions=additions["roster"], can_override=access.is_arbitrator
    )
    hired = forms.HiredGunForm(
        data if posted == "hired_gun" else None,
        hired=additions["hired"],
        battles=battles,
        can_override=access.is_arbitrator,
    )
    return {"hire_form": hire, "hired_gun_form": hired if battles and additions["hired"] else None}


def _gang_page(request, gang, *, partial: str = "", forms_built=None, status: int = 200):
    access = gang_access(request.user, gang)
    roster = lazy_roster(gang)
    context = {
        "gang": gang,
        "roster": roster,
        "roster_key": fragment_key(gang),
        "fragment_seconds": FRAGMENT_SECONDS,
        "stash_items": stash_items(gang, roster),
        "access": access,
        "territories": gang_territories(gang),
        "let_go": let_go_notice(gang),
        "hangers_on_cap": gang_rules.hangers_on_cap(gang.reputation),
        **(forms_built or (_hire_forms(gang, access) if access.can_edit else {})),
    }
    template = f"gangs/gang_detail.html#{partial}" if partial else "gangs/gang_detail.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def gang_detail(request, pk: int):
    return _gang_page(request, gang_for_view(request.user, pk, gang_queryset()))


@login_required
@require_GET
def gang_history_view(request, pk: int):
    gang = gang_for_view(request.user, pk)
    template = "gangs/gang_history.html#history" if request.htmx else "gangs/gang_history.html"
    return render(request, template, {"gang": gang, "entries": gang_history(gang)})


@login_required
@require_POST
def gang_rename(request, pk: int):
    gang = gang_for_edit(request.user, pk)
    form = forms.RenameForm(request.POST)
    if form.is_valid():
        services.gang_rename(gang=gang, name=form.cleaned_data["name"], actor=request.user)
        return _done(request, f"Renamed {gang.name}.", gang.get_absolute_url())
    messages.error(request, "A gang needs a name of at most 80 characters.")
    return redirect(gang)


@login_required
@require_POST
def gang_override(request, pk: int):
    gang = gang_for_edit(request.user, pk)
    form = forms.OverrideForm(request.POST)
    if not gang_access(request.user, gang).is_arbitrator:
        return HttpResponse("Only an arbitrator of the gang's campaign may override.", status=403)
    if form.is_valid():
        services.gang_override(gang=gang, actor=request.user, **form.cleaned_data)
        return _done(request, "Override recorded.", gang.get_absolute_url())
    messages.error(request, "An override needs whole numbers and a reason.")
    return redirect(gang)


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
    gang = gang_for_edit(request.user, pk, gang_queryset())
    access = gang_access(request.user, gang)
    built = _hire_forms(gang, access, request.POST, posted)
    form = built["hire_form" if posted == "hire" else "hired_gun_form"]
    if form is None:
        messages.error(request, "The gang has no coming battle to hire a Hired Gun for.")
        return redirect(gang)
    if form.is_valid():
        values = dict(form.cleaned_data)
        if posted == "hired_gun":
            values["hired_for"] = values.pop("battle")
        try:
            fighter = services.fighter_hire(gang=gang, actor=request.user, dice=RandomDice(), **values)
        except ValidationError as error:
            _fail(form, error)
        else:
            messages.success(request, f"Hired {fighter.name} for {fighter.cost} credits.")
            if not request.htmx:
                return redirect(gang)
            return _gang_page(request, gang_for_view(request.user, pk, gang_queryset()), partial="roster")
    return _gang_page(request, gang, partial="roster" if request.htmx else "", forms_built=built)


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
    return _gang_page(request, gang_for_view(request.user, pk, gang_queryset()), partial="roster")


# --- fighters ----------------------------------------------------------------------------------


def _fighter_forms(gang, row, access, posted: dict | None = None) -> dict:
    """The forms of the fighter page, with the one that was posted (bound, maybe with errors) in place."""
    fighter = row.fighter
    built = {"buy_form": forms.BuyForm(gang=gang, fighter=fighter, can_override=access.is_arbitrator)}
    built["move_form"] = forms.MoveForm(gang=gang)
    built["rename_form"] = forms.RenameForm(initial={"name": fighter.name})
    built["notes_form"] = forms.NotesForm(initial={"notes": fighter.notes})
    # Hangers-on and Hired Guns never advance (2023 Core, Gang Additions): the page says so instead of a form.
    built["never_advances"] = {gang_rules.HANGER_ON: "Hangers-on", gang_rules.HIRED_GUN: "Hired Guns"}.get(
        fighter.fighter_type.category, ""
    )
    if (
        gang.edition == Edition.N18
        and fighter.fighter_type.category in {*gang_rules.N18_ADVANCING_CATEGORIES, "ganger"}
        or gang.edition == Edition.CLASSIC
        and row.advances_due
    ):
        built["advance_form"] = _advance_form(gang, fighter)
    return {**built, **(posted or {})}


def _advance_form(gang, fighter, data=None):
    if gang.edition == Edition.N18 and fighter.fighter_type.category == "ganger":
        return forms.GangerAdvanceForm(data, primary_tables=services.specialist_primary_tables(fighter))
    standard, _, levels = services.skill_tables(gang.edition, fighter.fighter_type)
    if gang.edition == Edition.CLASSIC:
        return forms.ClassicAdvanceForm(data, standard_tables=standard)
    return forms.N18AdvanceForm(data, fighter=fighter, access=levels)


def _fighter_page(request, gang, fighter_pk: int, *, partial: bool = False, posted: dict | None = None):
    access = gang_access(request.user, gang)
    row, advancements = fighter_detail(gang, fighter_pk)
    context = {"gang": gang, "row": row, "fighter": row.fighter, "advancements": advancements, "access": access}
    if access.can_edit:
        context.update(_fighter_forms(gang, row, access, posted))
    template = "gangs/fighter_detail.html#fighter" if partial else "gangs/fighter_detail.html"
    return render(request, template, context)


def _after_fighter_change(request, gang, fighter_pk: int, message: str, form_name: str = "", form=None):
    """htmx: the fighter part of the page again; plain POST: back to the fighter page (or it with the errors)."""
    if form is not None and form.errors:
        return _fighter_page(request, gang, fighter_pk, partial=bool(request.htmx), posted={form_name: form})
    messages.success(request, message)
    if request.htmx:
        return _fighter_page(request, gang, fighter_pk, partial=True)
    return redirect("gangs:fighter-detail", pk=gang.pk, fighter_pk=fighter_pk)


@login_required
@require_GET
def fighter_detail_view(request, pk: int, fighter_pk: int):
    return _fighter_page(request, gang_for_view(request.user, pk, gang_with_content_version()), fighter_pk)


@login_required
@require_POST
def fighter_rename(request, pk: int, fighter_pk: int):
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters, pk=fighter_pk)
    form = forms.RenameForm(request.POST)
    if form.is_valid():
        services.fighter_rename(fighter=fighter, name=form.cleaned_data["name"], actor=request.user)
    return _after_fighter_change(request, gang, fighter.pk, f"Renamed {fighter.name}.", "rename_form", form)


@login_required
@require_POST
def fighter_notes(request, pk: int, fighter_pk: int):
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters, pk=fighter_pk)
    form = forms.NotesForm(request.POST)
    if form.is_valid():
        services.fighter_notes_set(fighter=fighter, notes=form.cleaned_data["notes"], actor=request.user)
    return _after_fighter_change(request, gang, fighter.pk, "Notes saved.", "notes_form", form)


@login_required
@require_POST
def fighter_retire(request, pk: int, fighter_pk: int):
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters, pk=fighter_pk)
    try:
        services.fighter_retire(fighter=fighter, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{fighter.name} has retired; their equipment went to the Stash.")
    if request.htmx:
        return HttpResponseClientRedirect(gang.get_absolute_url())
    return redirect(gang)


def _advance(gang, fighter, form, actor):
    data = form.cleaned_data
    if gang.edition == Edition.CLASSIC:
        dice = ScriptedDice(data["dice"]) if data["dice"] else RandomDice()
        return services.fighter_advance_classic(
            fighter=fighter, actor=actor, dice=dice, skill_table=data["skill_table"]
        )
    if "advance" in data:
        return services.fighter_advance_n18(fighter=fighter, actor=actor, dice=RandomDice(), **data["advance"])
    dice = ScriptedDice(data["dice"]) if data["dice"] else RandomDice()
    return services.fighter_advance_n18(
        fighter=fighter, actor=actor, dice=dice, prefer=data["prefer"], random_table=data["random_table"]
    )


@login_required
@require_POST
def fighter_advance(request, pk: int, fighter_pk: int):
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    form = _advance_form(gang, fighter, request.POST)
    message = ""
    if form.is_valid():
        try:
            advancement = _advance(gang, fighter, form, request.user)
            message = f"{fighter.name}: {advancement.description}."
        except ValidationError as error:
            _fail(form, error)
    return _after_fighter_change(request, gang, fighter.pk, message, "advance_form", form)


# --- equipment ---------------------------------------------------------------------------------


@login_required
@require_POST
def purchase_buy(request, pk: int, fighter_pk: int):
    gang = gang_for_edit(request.user, pk)
    fighter = get_object_or_404(gang.fighters.select_related("fighter_type"), pk=fighter_pk)
    access = gang_access(request.user, gang)
    form = forms.BuyForm(request.POST, gang=gang, fighter=fighter, can_override=access.is_arbitrator)
    message = ""
    if form.is_valid():
        try:
            purchase = services.purchase_buy(gang=gang, fighter=fighter, actor=request.user, **form.cleaned_data)
            message = f"Bought {purchase.equipment.name} for {purchase.price} credits."
        except ValidationError as error:
            _fail(form, error)
    return _after_fighter_change(request, gang, fighter.pk, message, "buy_form", form)


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
            _fail(form, error)
        else:
            return _done(
                request,
                f"Bought {purchase.equipment.name} for {purchase.price} credits, into the Stash.",
                gang.get_absolute_url(),
            )
    return render(request, "gangs/stash_buy.html", {"gang": gang, "form": form})


def _purchase(request, pk: int, purchase_pk: int) -> Purchase:
    gang = gang_for_edit(request.user, pk)
    return get_object_or_404(Purchase.objects.select_related("equipment", "fighter", "gang"), gang=gang, pk=purchase_pk)


def _back_from_purchase(request, purchase_gang, fighter_pk: int | None, message: str):
    """Back to the fighter the item belonged to, or to the gang page for the Stash."""
    if fighter_pk:
        return _after_fighter_change(request, purchase_gang, fighter_pk, message)
    messages.success(request, message)
    if request.htmx:
        gang = gang_for_view(request.user, purchase_gang.pk, gang_queryset())
        return _gang_page(request, gang, partial="roster")
    return redirect(purchase_gang)


@login_required
@require_POST
def purchase_sell(request, pk: int, purchase_pk: int):
    purchase = _purchase(request, pk, purchase_pk)
    fighter_pk, name = purchase.fighter_id, purchase.equipment.name
    try:
        entry = services.purchase_sell(purchase=purchase, actor=request.user, dice=RandomDice())
    except ValidationError as error:  # sold or discarded by another request a moment ago
        return _purchase_refused(request, purchase, fighter_pk, error)
    return _back_from_purchase(request, purchase.gang, fighter_pk, f"Sold {name} for {entry.credits} credits.")


def _purchase_refused(request, purchase, fighter_pk: int | None, error: ValidationError):
    messages.error(request, " ".join(error.messages))
    return redirect(
        reverse("gangs:fighter-detail", args=[purchase.gang_id, fighter_pk])
        if fighter_pk
        else purchase.gang.get_absolute_url()
    )


@login_required
@require_POST
def purchase_discard(request, pk: int, purchase_pk: int):
    purchase = _purchase(request, pk, purchase_pk)
    fighter_pk, name = purchase.fighter_id, purchase.equipment.name
    try:
        services.purchase_discard(purchase=purchase, actor=request.user)
    except ValidationError as error:
        return _purchase_refused(request, purchase, fighter_pk, error)
    return _back_from_purchase(request, purchase.gang, fighter_pk, f"Discarded {name}.")


@login_required
@require_POST
def purchase_move(request, pk: int, purchase_pk: int):
    purchase = _purchase(request, pk, purchase_pk)
    fighter_pk = purchase.fighter_id
    form = forms.MoveForm(request.POST, gang=purchase.gang)
    try:
        if not form.is_valid():
            raise ValidationError("Choose a fighter of the gang or the Stash.")
        services.purchase_move(purchase=purchase, fighter=form.cleaned_data["to"], actor=request.user)
    except ValidationError as error:
        return _purchase_refused(request, purchase, fighter_pk, error)
    target = purchase.fighter.name if purchase.fighter else "the Stash"
    return _back_from_purchase(request, purchase.gang, fighter_pk, f"Moved {purchase.equipment.name} to {target}.")


# --- print, export, import ---------------------------------------------------------------------


@login_required
@require_GET
def gang_print(request, pk: int):
    """The roster sheet; ``?cards=1`` the fighter cards, ``?cards=blank`` a sheet of blank cards; A4 or Letter."""
    gang = gang_for_view(request.user, pk, gang_queryset())
    size = request.GET.get("size", "a4")
    kind = {"1": "cards", "blank": "blank"}.get(request.GET.get("cards", ""), "roster")
    roster = lazy_roster(gang)
    context = {
        "gang": gang,
        "roster": roster,
        "roster_key": fragment_key(gang),
        "fragment_seconds": FRAGMENT_SECONDS,
        "size": size if size in PRINT_SIZES else "a4",
        "sizes": PRINT_SIZES,
        "kind": kind,
        # Drawn only when the sheet is not in the cache (lazily, like the roster).
        **printing.sheet_parts(gang, roster, kind),
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
            data = exchange.parse_gang_file(form.cleaned_data["file"].read())
            gang = exchange.gang_import(owner=request.user, data=data)
        except ValidationError as error:
            problems = error.messages
        else:
            return _done(request, f"Imported {gang.name}.", gang.get_absolute_url())
    return render(request, "gangs/gang_import.html", {"form": form, "problems": problems})

"""Issue 26, "nothing minted, by any path": every function that changes a Stash, experience or Reputation is
listed here with what it is owed to. A new one fails this test until someone says why it may (and, if it
creates value, how a club's arbitrator sees it before a campaign does).

What may create credits, experience or Reputation:
* ``rule``: the game's rules or its price lists, applied by the site (a purchase spends, a battle's rewards);
* ``arbitrator``: an arbitrator's decision on a gang of their campaign, bounded by its house rules;
* ``player``: a player's own record outside any campaign, or an import: neither reaches a campaign without an
  arbitrator accepting the gang, seeing it flagged (campaigns.selectors.join_flags);
* ``tool``: demo and benchmark data, never reachable from a request.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

ROOT = Path(__file__).resolve().parents[2]
APPS = ("gangs", "campaigns", "battles", "postbattle", "core", "content", "tools")
# The writers of the totals (gangs.ledger), the two helpers that pass their amounts straight to it, and a ledger
# row built directly (the bulk import writes its entries in one insert).
WRITERS = {"ledger_record", "_entry", "experience_award", "LedgerEntry"}
AMOUNTS = {"credits", "experience", "reputation", "amount"}

OWED = {
    "campaigns.services._common._territory_move": ("rule", "a territory's Reputation while held, given and taken"),
    "campaigns.services.campaigns._home_settlement": ("rule", "Home Settlement: +1 Reputation while held"),
    "campaigns.services.campaigns.gang_remove": ("rule", "the Home Settlement's Reputation given up on leaving"),
    "campaigns.services.house_rules.on_join": ("rule", "the campaign's house rules: starting credits, Reputation"),
    "campaigns.services.house_rules._starting_reputation": (
        "rule",
        "the campaign's house rules: starting Reputation (not vouched for when its gang's player set it, nor in "
        "another campaign it never played in)",
    ),
    "campaigns.services.house_rules.post_battle_credits": (
        "rule",
        "the house rules in force when the battle was confirmed",
    ),
    "campaigns.services.joining._cap_unvouched": (
        "arbitrator",
        "only takes off Reputation and experience its history does not vouch for",
    ),
    "campaigns.services.joining.join_accept": ("arbitrator", "only lowers the Stash to what the arbitrator accepts"),
    "tools.campaign_exchange.load.ledger": (
        "player",
        "a campaign import, checked; its gangs flagged 'imported' when they ask to join",
    ),
    "tools.management.commands.bench_pages._gang": ("tool", "make bench's data"),
    "tools.management.commands.bench_busy_site._fill": ("tool", "make bench's busy site"),
    "gangs.demo._seasoned": ("tool", "the demo command's gangs"),
    "gangs.exchange.import_rows": ("player", "an import: flagged 'imported' when it asks to join"),
    "gangs.services.advancement.advancement_record": ("rule", "an advance spends the experience its table costs"),
    "gangs.services.equipment.purchase_buy": ("rule", "the price list: spends"),
    "gangs.services.equipment.purchase_sell": ("rule", "the Trading Post's sale value (a free item sells for 0)"),
    "gangs.services.fighters._starting_experience": ("rule", "a new fighter's starting experience, rolled"),
    "gangs.services.fighters.experience_award": ("rule", "the post-battle sequence's and the demo's awards"),
    "gangs.services.fighters.fighter_remove": ("rule", "a hire taken back before the first battle: what was paid"),
    "gangs.services.fighters.fighter_hire": ("rule", "the house list's price: spends"),
    "campaigns.services.hired_guns.hired_guns_leave": ("rule", "a cancelled battle's Hired Gun fee back"),
    "gangs.services.gangs.gang_create": ("rule", "the house's starting credits"),
    "gangs.services.gangs.gang_override": ("arbitrator", "bounded per gang and per campaign (house rules)"),
    "gangs.services.record._write_injury": ("rule", "an injury's effect on experience"),
    "gangs.services.record.record_experience": ("player", "outside a campaign only; flagged 'self-recorded'"),
    "gangs.services.undo._reverse": ("rule", "an undo restores exactly what its entry changed"),
    "postbattle.apply.credits": ("rule", "the post-battle sequence: income, rewards"),
    "postbattle.apply.effects_revert": ("arbitrator", "an arbitrator reverts a sequence: its entries reversed"),
    "postbattle.apply.reputation": ("rule", "the post-battle sequence's Reputation"),
    "postbattle.apply.xp": ("rule", "the post-battle sequence's experience"),
}


def _writers() -> set[str]:
    found = set()
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "tests" in rel.parts or "migrations" in rel.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for call in ast.walk(node):
                    name = getattr(call, "func", None)
                    name = getattr(name, "id", getattr(name, "attr", None))
                    if isinstance(call, ast.Call) and name in WRITERS and {k.arg for k in call.keywords} & AMOUNTS:
                        found.add(f"{'.'.join(rel.with_suffix('').parts)}.{node.name}")
    return found


def test_every_writer_of_credits_experience_or_reputation_is_owed_to_something():
    found = _writers()
    assert found - set(OWED) == set(), "new writers: say in OWED what each is owed to"
    assert set(OWED) - found == set(), "OWED lists functions that no longer write: remove them"
    assert {why for why, _ in OWED.values()} <= {"rule", "arbitrator", "player", "tool"}


@pytest.mark.django_db
def test_what_a_player_brings_is_flagged_and_joins_only_when_accepted(
    make_user, make_gang, make_fighter, make_campaign
):
    """The ``player`` paths: an import and self-recorded experience are what the arbitrator sees first."""
    from campaigns.selectors import join_flags
    from campaigns.services import join_accept, join_request
    from gangs import exchange
    from gangs.services import record

    campaign = make_campaign(edition="n18")
    arbitrator = campaign.arbitrators.get().user
    owner = make_user()
    source = make_gang(owner=owner, edition="n18")
    make_fighter(source, "leader", name="Krag")
    gang = exchange.gang_import(owner=owner, data={**exchange.gang_export(source), "name": "Minted", "stash": 9000})
    krag = gang.fighters.get(name="Krag")
    record.record_experience(fighter=krag, amount=30, reason="Won at home", actor=owner, token="t1")
    codes = {flag.code for flag in join_flags(gang, campaign)}
    assert codes >= {"imported", "self-recorded", "above-starting-credits"}
    join = join_request(campaign=campaign, gang=gang, user=owner)
    assert not campaign.memberships.exists()
    join_accept(join=join, actor=arbitrator)
    gang.refresh_from_db()
    assert gang.stash == campaign.starting_credits


@pytest.mark.django_db
@pytest.mark.parametrize("keep", [False, True])
def test_reputation_and_experience_not_vouched_for_are_taken_off_unless_kept_with_a_reason(
    make_user, make_gang, make_fighter, make_campaign, keep
):
    """Issue 26: the laundered Reputation and experience are capped at joining, like the credits; the ledger
    says so either way, and its totals stay equal to the gang's."""
    from campaigns.selectors import join_flags
    from campaigns.services import join_accept, join_request
    from gangs.ledger import ledger_record, ledger_totals
    from gangs.models import LedgerKind
    from gangs.services import record

    campaign = make_campaign(edition="n18")
    arbitrator = campaign.arbitrators.get().user
    owner = make_user()
    gang = make_gang(owner=owner, edition="n18")
    krag = make_fighter(gang, "leader", name="Krag")
    record.record_experience(fighter=krag, amount=30, reason="Won at home", actor=owner, token="t1")
    ledger_record(
        gang=gang,
        kind=LedgerKind.OVERRIDE,
        reputation=50,
        actor=owner,
        reason="my own campaign",
        description="Reputation set by hand",
    )
    assert "50 Reputation and 30 XP" in {f.code: f.text for f in join_flags(gang, campaign)}["unvouched"]
    join = join_request(campaign=campaign, gang=gang, user=owner)
    if keep:
        with pytest.raises(ValidationError):
            join_accept(join=join, actor=arbitrator, keep_unvouched=True)
        join_accept(join=join, actor=arbitrator, keep_unvouched=True, reason="won it at the club's last season")
    else:
        join_accept(join=join, actor=arbitrator)
    gang.refresh_from_db()
    krag.refresh_from_db()
    taken = gang.ledger.filter(data__join=join.pk).exclude(kind=LedgerKind.OTHER)
    assert sorted(taken.values_list("reputation", "experience")) == ([] if keep else [(-50, 0), (0, -30)])
    assert krag.experience == (30 if keep else 0)
    assert gang.ledger.filter(data__join=join.pk, kind=LedgerKind.OTHER).exists() == keep
    totals = ledger_totals(gang)
    assert (totals["reputation"], totals["experience"][krag.pk]) == (gang.reputation, krag.experience)


@pytest.mark.django_db
def test_house_rules_of_a_campaign_the_player_ran_himself_do_not_launder_reputation(
    make_user, make_gang, make_campaign
):
    """Issue 26, the attacker's view again: a player's own campaign with a starting Reputation of 100,000, joined
    and left, then the club's campaign. The house rule is a rule, but its arbitrator was the gang's own player: not
    vouched for, so it is taken off at joining (the club's own starting Reputation is then added)."""
    from campaigns.models import CampaignGang
    from campaigns.services import campaign_join, gang_remove, join_accept, join_request
    from campaigns.services.house_rules import house_rules_change
    from gangs.models import LedgerKind

    owner = make_user()
    gang = make_gang(owner=owner, edition="n18")
    private = make_campaign(edition="n18", arbitrator=owner)
    house_rules_change(campaign=private, actor=owner, starting_reputation=100_000)
    membership = campaign_join(campaign=private, gang=gang, user=owner)
    gang_remove(membership=CampaignGang.objects.get(pk=membership.pk), actor=owner)
    gang.refresh_from_db()
    assert gang.reputation >= 100_000
    club = make_campaign(edition="n18")
    join_accept(join=join_request(campaign=club, gang=gang, user=owner), actor=club.arbitrators.get().user)
    gang.refresh_from_db()
    taken = gang.ledger.filter(kind=LedgerKind.REPUTATION, data__has_key="join").get()
    assert taken.reputation == -100_000
    assert gang.reputation < 100


def _fight(campaign, attacker, defender, *, confirmer, gains: dict):
    """A battle of ``campaign`` reported by the defender's player and confirmed by ``confirmer`` (the attacker's), then what its
    post-battle sequence gave each gang (``gains``: credits, Reputation and a fighter's experience), linked to the
    battle as the sequence links its entries (postbattle.apply)."""
    from campaigns import services
    from gangs.ledger import ledger_record
    from gangs.models import LedgerKind
    from rulebook.dice import ScriptedDice

    battle = services.battle_arrange(campaign=campaign, attacker=attacker, defender=defender)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 5, 2]))
    battle = services.battle_report_submit(battle=battle, actor=defender.owner, winner=attacker)
    services.battle_report_confirm(battle=battle, actor=confirmer, is_arbitrator=False)
    for gang in (attacker, defender):
        fighter = gang.fighters.order_by("pk").first()
        ledger_record(
            gang=gang,
            kind=LedgerKind.CREDITS,
            credits=gains["credits"],
            battle=battle,
            description="Income",
            data={"post_battle": 0},
        )
        ledger_record(
            gang=gang,
            kind=LedgerKind.REPUTATION,
            reputation=gains["reputation"],
            battle=battle,
            description="Reputation",
            data={"post_battle": 0},
        )
        ledger_record(
            gang=gang,
            kind=LedgerKind.EXPERIENCE,
            fighter=fighter,
            experience=gains["experience"],
            battle=battle,
            description="Out of Action caused",
            data={"post_battle": 0},
        )
    return battle


@pytest.fixture
def laundered(make_user, make_gang, make_fighter, make_campaign):
    """Issue 26, the last money path: Piet runs a campaign alone and plays his gang in it against his friend's;
    the friend reports, Piet confirms as the opponent (separation of duties lets him), and the battles pay out.
    His gang leaves and asks to join the club's campaign."""
    from campaigns.models import CampaignGang
    from campaigns.services import campaign_join, campaign_start, gang_remove

    piet, friend = make_user("piet"), make_user("friend")
    gangs = {}
    for owner in (piet, friend):
        gangs[owner.username] = make_gang(owner=owner, edition="n18", name=f"{owner.username}'s gang")
        make_fighter(gangs[owner.username], "leader")
    private = make_campaign(edition="n18", arbitrator=piet, name="Piet's own")
    for gang in gangs.values():
        campaign_join(campaign=private, gang=gang, user=gang.owner)
    private = campaign_start(campaign=private)
    gains = {"credits": 400, "reputation": 20, "experience": 30}  # for both gangs: the friend profits too
    _fight(private, gangs["piet"], gangs["friend"], confirmer=piet, gains=gains)
    for gang in gangs.values():
        gang_remove(membership=CampaignGang.objects.get(campaign=private, gang=gang), actor=piet)
        gang.refresh_from_db()
    club = make_campaign(edition="n18", name="The club's")
    return {"gangs": gangs, "club": club, "private": private}


@pytest.mark.parametrize("whose", ["piet", "friend"])
def test_battles_no_impartial_arbitrator_oversaw_are_flagged_and_taken_off_as_the_gang_joins(laundered, whose):
    """Piet is the only arbitrator, so each battle was checked only by its two players: what it gave both gangs is
    flagged for the club's arbitrator and taken off as they join (the Stash down to what it held before them)."""
    from campaigns.selectors import join_flags
    from campaigns.services import join_accept, join_request
    from gangs.ledger import ledger_totals
    from gangs.models import LedgerKind

    gang, club = laundered["gangs"][whose], laundered["club"]
    leader = gang.fighters.get()
    before = gang.stash - 400
    flags = {flag.code: flag.text for flag in join_flags(gang, club)}
    assert "1 battle confirmed while no arbitrator" in flags["unarbitrated"]
    assert "+400 credits, +20 reputation, +30 experience" in flags["unarbitrated"]
    assert flags["unvouched"].startswith("400 credits, 20 Reputation and 30 XP")
    join = join_accept(join=join_request(campaign=club, gang=gang, user=gang.owner), actor=club.arbitrators.get().user)
    gang.refresh_from_db()
    leader.refresh_from_db()
    assert join.credits == min(before, club.starting_credits) == gang.stash
    taken = gang.ledger.filter(data__join=join.pk)
    assert sorted(taken.values_list("kind", "reputation", "experience")) == sorted(
        [(LedgerKind.CREDITS, 0, 0), (LedgerKind.REPUTATION, -20, 0), (LedgerKind.EXPERIENCE, 0, -30)]
    )
    assert leader.experience == 0
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"], totals["experience"][leader.pk]) == (
        gang.stash,
        gang.reputation,
        leader.experience,
    )


def test_keeping_what_unarbitrated_battles_gave_needs_the_reason_and_the_ledger_keeps_it(laundered):
    from campaigns.services import join_accept, join_request

    gang, club = laundered["gangs"]["piet"], laundered["club"]
    club.starting_credits = 5000  # the Stash is not capped by the starting credits here
    club.save(update_fields=["starting_credits"])
    arbitrator = club.arbitrators.get().user
    join = join_request(campaign=club, gang=gang, user=gang.owner)
    held = gang.stash
    with pytest.raises(ValidationError, match="battles no impartial arbitrator saw"):
        join_accept(join=join, actor=arbitrator, credits=held)
    join_accept(join=join, actor=arbitrator, credits=held, keep_unvouched=True, reason="we watched those games")
    gang.refresh_from_db()
    assert gang.stash == held and gang.fighters.get().experience == 30
    kept = gang.ledger.filter(data__join=join.pk).values_list("description", "reason")
    assert {reason for _, reason in kept} == {"we watched those games"}
    assert any("keeping some of the 400 unarbitrated battles gave it" in text for text, _ in kept)


def test_a_battle_an_impartial_arbitrator_oversaw_is_vouched_for_one_added_later_does_not_count(
    two_player_campaign, make_campaign
):
    """The club's own battles (an arbitrator who plays neither gang, the opponent confirming) stay; an impartial
    arbitrator added after the battle was confirmed did not oversee it."""
    from campaigns.selectors import join_flags
    from campaigns.services import arbitrator_add

    campaign, users, gangs = (two_player_campaign[k] for k in ("campaign", "users", "gangs"))
    _fight(
        campaign,
        gangs["alice"],
        gangs["bob"],
        confirmer=users["alice"],
        gains={"credits": 10, "reputation": 1, "experience": 2},
    )
    club = make_campaign(edition="n18")
    assert not {"unarbitrated", "unvouched"} & {flag.code for flag in join_flags(gangs["alice"], club)}
    alone = make_campaign(edition="n18", arbitrator=users["alice"])
    from campaigns.services import campaign_join, campaign_start, gang_remove

    for gang in gangs.values():
        gang_remove(membership=gang.memberships.get(campaign=campaign), actor=users["arbitrator"])
        campaign_join(campaign=alone, gang=gang, user=gang.owner)
    alone = campaign_start(campaign=alone)
    _fight(
        alone,
        gangs["alice"],
        gangs["bob"],
        confirmer=users["alice"],
        gains={"credits": 10, "reputation": 1, "experience": 2},
    )
    arbitrator_add(campaign=alone, user=users["arbitrator"])
    assert "1 battle confirmed" in {flag.code: flag.text for flag in join_flags(gangs["alice"], club)}["unarbitrated"]


def test_the_only_arbitrator_cannot_confirm_a_battle_between_his_own_two_gangs(make_user, make_gang, make_campaign):
    """Separation of duties when he is the only arbitrator: his report of his two gangs' battle waits for an
    arbitrator who plays neither (and such a battle is vouched for only if one confirms it)."""
    from campaigns import services
    from rulebook.dice import ScriptedDice

    piet = make_user()
    first, second = (make_gang(owner=piet, edition="n18") for _ in range(2))
    campaign = make_campaign(edition="n18", arbitrator=piet)
    for gang in (first, second):
        services.campaign_join(campaign=campaign, gang=gang, user=piet)
    campaign = services.campaign_start(campaign=campaign)
    battle = services.battle_arrange(campaign=campaign, attacker=first, defender=second)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 5, 2]))
    battle = services.battle_report_submit(battle=battle, actor=piet, winner=first)
    with pytest.raises(ValidationError, match="not the player who entered it"):
        services.battle_report_confirm(battle=battle, actor=piet, is_arbitrator=True)


def test_the_club_arbitrator_sees_the_unarbitrated_battles_and_the_stash_without_their_credits(laundered, client):
    from django.urls import reverse

    from campaigns.services import join_request

    gang, club = laundered["gangs"]["piet"], laundered["club"]
    join = join_request(campaign=club, gang=gang, user=gang.owner)
    client.force_login(club.arbitrators.get().user)
    page = client.get(reverse("campaigns:campaign-detail", args=[club.pk])).content.decode()
    assert f'data-testid="join-{join.pk}"' in page
    assert "1 battle confirmed while no arbitrator of its campaign played neither gang" in page
    assert f'name="credits" min="0" value="{min(gang.stash - 400, club.starting_credits)}"' in page


def test_a_territory_taken_in_an_unarbitrated_battle_and_given_back_on_leaving_is_not_taken_off_again(laundered):
    """Its Reputation while held went back when the gang left (``_territory_move``): nothing of it is left to take."""
    from campaigns.selectors import unvouched_gains
    from gangs.ledger import ledger_record
    from gangs.models import LedgerKind

    gang, private = laundered["gangs"]["piet"], laundered["private"]
    battle, held = private.battles.get(), {"campaign": private.pk, "territory": 987}
    ledger_record(gang=gang, kind=LedgerKind.TERRITORY, reputation=1, battle=battle, data=held, description="Took it")
    assert unvouched_gains(gang, laundered["club"]).reputation == 21
    ledger_record(gang=gang, kind=LedgerKind.TERRITORY, reputation=-1, data=held, description="Lost it (left)")
    assert unvouched_gains(gang, laundered["club"]).reputation == 20

"""Notifications end to end: events written with their change, the worker (the real ``manage.py worker``
on the database queue) sending them to a local webhook receiver and to Django's mail outbox, retries with
backoff, the webhook's checks, and who may see the campaign's notification page."""

import io
from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaigns import services as campaigns
from campaigns.models import CampaignTerritory, Outcome
from notifications import services
from notifications.models import Channel, Delivery, DeliveryStatus, Event, EventKind
from notifications.webhooks import check_url
from postbattle import services as postbattle
from rulebook.dice import ScriptedDice
from tools.todo import home_todos

pytestmark = pytest.mark.django_db


def run_worker():
    """The site's worker, bounded: it runs what is queued, then exits. Its reconnecting between tasks is
    switched off, as Django's test cases do for requests: the test's one connection holds the test's
    transaction."""
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command("worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0", verbosity=0)


@pytest.fixture
def club(two_player_campaign, receiver, settings, make_user):
    """The two-player campaign with a webhook to the local receiver and alice (only) asking for mail."""
    settings.DEBUG = True  # a loopback http receiver is allowed only in DEBUG
    settings.SITE_URL = "https://ledger.example"
    campaign, users = two_player_campaign["campaign"], two_player_campaign["users"]
    services.webhook_set(campaign=campaign, url=receiver.url)
    for name in ("alice", "bob"):
        users[name].email = f"{name}@example.org"
        users[name].save()
    services.mail_choice_set(user=users["alice"], campaign_events=True)
    return two_player_campaign


def test_a_cycle_begun_reaches_discord_and_the_players_who_asked(club, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        campaigns.cycle_advance(campaign=club["campaign"])
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # woken through the Tasks API
    run_worker()
    assert receiver.texts == [
        f"**Dust Falls**: Cycle 2 has begun.\nhttps://ledger.example/campaigns/{club['campaign'].pk}/"
    ]
    assert [(m.to, m.subject) for m in mail.outbox] == [(["alice@example.org"], "[Dust Falls] Cycle begun")]
    assert "Cycle 2 has begun." in mail.outbox[0].body and "/notifications/mail/" in mail.outbox[0].body
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.DELIVERED}
    run_worker()  # nothing is sent twice
    assert len(receiver.texts) == 1 and len(mail.outbox) == 1


def test_an_event_exists_only_if_its_change_was_committed(club):
    with pytest.raises(RuntimeError), transaction.atomic():
        campaigns.cycle_advance(campaign=club["campaign"])
        assert Event.objects.count() == 1
        raise RuntimeError("the request failed after the change")
    assert not Event.objects.exists()


def test_every_event_of_a_challenge_battle_and_its_sequence(make_campaign, make_fighter, make_territory):
    campaign = make_campaign(gangs=2, started=True)
    campaigns.cycle_advance(campaign=campaign)
    low, high = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
    for kind in ("leader", "ganger", "ganger"):
        make_fighter(low, kind)
    for kind in ("leader", "ganger", "ganger", "ganger"):
        make_fighter(high, kind)
    held = campaigns.territory_add(campaign=campaign, territory=make_territory(name="Slag Furnace"))
    campaigns.territory_assign(held=held, holder=high, actor=campaign.created_by)
    stake = CampaignTerritory.objects.get(pk=held.pk)
    battle = campaigns.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=stake)
    battle = campaigns.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1]))
    enemy, mine = high.fighters.first(), low.fighters.first()
    battle = campaigns.battle_report_submit(
        battle=battle,
        actor=low.owner,
        winner=low,
        defender_bottled=True,
        fighter_results=[{"fighter": enemy.pk, "outcome": Outcome.OUT_OF_ACTION, "caused_by": mine.pk}],
    )
    campaigns.battle_report_confirm(battle=battle, actor=high.owner, is_arbitrator=False)
    texts = list(Event.objects.values_list("kind", "text"))
    name = f"{low.name} v {high.name}"
    assert texts == [
        (EventKind.CYCLE_BEGUN, "Cycle 2 has begun."),
        (EventKind.CHALLENGE_ISSUED, f"{low.name} challenges {high.name} for Slag Furnace."),
        (EventKind.BATTLE_REPORTED, f"Smash & Grab, {name}: reported ({low.name} won), waiting for confirmation."),
        (
            EventKind.BATTLE_CONFIRMED,
            f"Smash & Grab, {name}: confirmed, {low.name} won. Post-battle sequences can be run.",
        ),
    ]


def test_a_sequence_applied_and_the_captive_it_took(make_confirmed_battle):
    oaa = "out_of_action"
    battle = make_confirmed_battle(
        edition="classic",
        winner="defender",
        results=[("attacker", 0, oaa, None, {}), ("attacker", 1, oaa, None, {}), ("attacker", 2, "ok", None, {})],
    )
    gang = battle.attacker
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=None)
    for dice in ([1, 1, 6, 1], [4, 5], [], [], []):  # ganger0 Dead, ganger1 Captured (see the postbattle tests)
        sequence = postbattle.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices={}, actor=gang.owner
        )
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    captive = gang.fighters.order_by("pk")[1]
    assert list(Event.objects.values_list("kind", "text")) == [
        (EventKind.SEQUENCE_APPLIED, f"{gang.name} applied its post-battle sequence after Gang Fight, {battle}."),
        (EventKind.CAPTIVE_TAKEN, f"{captive.name} of {gang.name} is held captive by {battle.defender.name}."),
    ]


def test_a_failed_send_is_retried_with_backoff_then_shown_to_the_arbitrator(club, receiver, client):
    receiver.fail_next = 1
    campaigns.cycle_advance(campaign=club["campaign"])
    services.events_expand()
    before = timezone.now()
    assert services.deliveries_send() == 2  # the webhook failed, the mail went
    hook = Delivery.objects.get(channel=Channel.WEBHOOK)
    assert (hook.status, hook.attempts, hook.last_error) == (
        DeliveryStatus.PENDING,
        1,
        "The webhook answered 500 Internal Server Error",
    )
    assert before + timedelta(seconds=29) < hook.next_attempt_at < timezone.now() + timedelta(seconds=31)
    assert services.deliveries_send() == 0  # not due yet
    client.force_login(club["users"]["arbitrator"])
    page = client.get(reverse("notifications:campaign-notifications", args=[club["campaign"].pk]))
    assert "The webhook answered 500" in page.content.decode()
    Delivery.objects.filter(pk=hook.pk).update(next_attempt_at=timezone.now())
    assert services.deliveries_send() == 1
    hook.refresh_from_db()
    assert hook.status == DeliveryStatus.DELIVERED and receiver.texts[0].endswith(
        f"begun.\nhttps://ledger.example/campaigns/{club['campaign'].pk}/"
    )


def test_after_the_last_attempt_it_fails_and_the_arbitrator_can_send_it_again(club, receiver, client):
    receiver.fail_next = services.MAX_ATTEMPTS
    campaigns.cycle_advance(campaign=club["campaign"])
    services.events_expand()
    for _ in range(services.MAX_ATTEMPTS):
        Delivery.objects.filter(status=DeliveryStatus.PENDING).update(next_attempt_at=timezone.now())
        services.deliveries_send()
    hook = Delivery.objects.get(channel=Channel.WEBHOOK)
    assert (hook.status, hook.attempts) == (DeliveryStatus.FAILED, services.MAX_ATTEMPTS)
    assert services.outbox_status().failed == 1
    waiting = [todo.text for todo in home_todos(club["users"]["arbitrator"]).campaigns[0].waiting]
    assert "1 notification could not be sent." in waiting  # on the arbitrator's to-do list too
    client.force_login(club["users"]["arbitrator"])
    response = client.post(reverse("notifications:deliveries-retry", args=[club["campaign"].pk]), follow=True)
    assert "1 failed delivery will be sent again." in response.content.decode()
    services.deliveries_send()
    hook.refresh_from_db()
    assert hook.status == DeliveryStatus.DELIVERED and len(receiver.texts) == 1


def test_outbox_status_tells_how_long_work_has_waited(club):
    assert services.outbox_status().keeping_up()
    campaigns.cycle_advance(campaign=club["campaign"])
    Event.objects.update(created_at=timezone.now() - timedelta(minutes=10))
    status = services.outbox_status()
    assert status.waiting == 1 and not status.keeping_up() and status.lag() > timedelta(minutes=9)
    services.events_expand(), services.deliveries_send()
    assert services.outbox_status().keeping_up() and services.outbox_status().waiting == 0


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://discord.example/api/webhooks/1/x", "https"),
        ("https://127.0.0.1/api/webhooks/1/x", "private or local"),
        ("https://10.1.2.3/hook", "private or local"),
        ("https://169.254.169.254/latest", "private or local"),
        ("https://[::1]/hook", "private or local"),
        ("ftp://example.org/", "https"),
        ("https:///nohost", "names a host"),
    ],
)
def test_webhook_addresses_refused_off_debug(url, message, settings):
    settings.DEBUG = False
    with pytest.raises(ValidationError, match=message):
        check_url(url)


def test_a_public_https_address_is_allowed_off_debug(settings):
    settings.DEBUG = False
    assert check_url("https://93.184.215.14/api/webhooks/1/x") == "https://93.184.215.14/api/webhooks/1/x"


def test_a_refused_address_at_send_time_fails_the_send(club, receiver, settings):
    campaigns.cycle_advance(campaign=club["campaign"])
    services.events_expand()
    settings.DEBUG = False  # the site left DEBUG: the loopback receiver is refused, even though it was saved
    services.deliveries_send()
    hook = Delivery.objects.get(channel=Channel.WEBHOOK)
    assert "https" in hook.last_error and receiver.texts == []


def test_who_sees_the_notification_page_and_the_webhook(club, client, make_user):
    url = reverse("notifications:campaign-notifications", args=[club["campaign"].pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404
    client.force_login(club["users"]["alice"])
    assert client.get(url).status_code == 403
    assert client.post(url, {"url": ""}).status_code == 403
    detail = client.get(reverse("campaigns:campaign-detail", args=[club["campaign"].pk])).content.decode()
    assert "secret-token" not in detail
    client.force_login(club["users"]["arbitrator"])
    assert "secret-token" in client.get(url).content.decode()
    assert client.get(reverse("notifications:deliveries-retry", args=[club["campaign"].pk])).status_code == 405


def test_the_arbitrator_sets_and_removes_the_webhook(club, client, settings):
    settings.DEBUG = False
    client.force_login(club["users"]["arbitrator"])
    url = reverse("notifications:campaign-notifications", args=[club["campaign"].pk])
    response = client.post(url, {"url": "https://10.0.0.5/hook"})
    assert response.status_code == 200 and "private or local" in response.content.decode()
    assert client.post(url, {"url": ""}).status_code == 302
    assert not hasattr(club["campaign"].__class__.objects.get(pk=club["campaign"].pk), "webhook")


def test_a_person_chooses_mail(client, make_user):
    user = make_user("carol", email="carol@example.org")
    client.force_login(user)
    url = reverse("notifications:mail-choice")
    assert client.get(url).status_code == 200
    client.post(url, {"campaign_events": "on"})
    assert user.mail_choice.campaign_events
    client.post(url, {})
    user.mail_choice.refresh_from_db()
    assert not user.mail_choice.campaign_events


def test_notifications_send_empties_the_outbox_without_a_queue(club, receiver):
    campaigns.cycle_advance(campaign=club["campaign"])
    out = io.StringIO()
    call_command("notifications_send", stdout=out)
    assert out.getvalue() == "1 events expanded, 2 deliveries tried.\n"
    assert len(receiver.texts) == 1 and len(mail.outbox) == 1


def test_a_burst_of_events_queues_one_run_that_sends_them_all(club, receiver, django_capture_on_commit_callbacks):
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            campaigns.cycle_advance(campaign=club["campaign"])
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    run_worker()
    assert [text.split("\n")[0] for text in receiver.texts] == [
        f"**Dust Falls**: Cycle {n} has begun." for n in (2, 3, 4)
    ]


def test_a_webhook_removed_before_the_send_fails_it_at_once(club, receiver):
    campaigns.cycle_advance(campaign=club["campaign"])
    services.events_expand()
    services.webhook_set(campaign=club["campaign"], url="")
    services.deliveries_send()
    hook = Delivery.objects.get(channel=Channel.WEBHOOK)
    assert (hook.status, hook.attempts, hook.last_error) == (
        DeliveryStatus.FAILED,
        1,
        "The campaign has no webhook any more.",
    )
    assert receiver.texts == []


def test_a_player_stops_mail_from_one_campaign_and_keeps_the_others(club, receiver, client):
    alice, campaign = club["users"]["alice"], club["campaign"]
    other = campaigns.campaign_create(user=alice, edition="n18", name="Ash Wastes", starting_credits=1000)
    client.force_login(alice)
    url = reverse("notifications:mail-choice")
    page = client.get(url).content.decode()
    assert "Dust Falls" in page and "Ash Wastes" in page
    assert client.post(url, {"campaign_events": "on", "muted": [campaign.pk]}).status_code == 302
    assert services._readers({campaign.pk, other.pk}) == {other.pk: {alice.pk}}
    campaigns.cycle_advance(campaign=campaign)
    run_worker()
    assert len(receiver.texts) == 1 and mail.outbox == []  # Discord still told; alice not mailed
    # A stale choice (a campaign not hers) is refused in the game's words, nothing changed.
    response = client.post(url, {"campaign_events": "on", "muted": [other.pk + 1000]})
    assert response.status_code == 200 and "That choice is not on offer now" in response.content.decode()
    assert list(alice.mail_mutes.values_list("campaign_id", flat=True)) == [campaign.pk]
    # Mail from it again.
    client.post(url, {"campaign_events": "on"})
    assert not alice.mail_mutes.exists()
    assert alice.pk in services._readers({campaign.pk})[campaign.pk]

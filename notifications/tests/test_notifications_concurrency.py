"""Workers race nothing (PostgreSQL row locks, SKIP LOCKED; each thread has its own connection): four workers
expanding and sending at once write each delivery once and post each event once."""

from campaigns import services as campaigns
from core.testing import race_marks
from notifications import services
from notifications.models import Delivery, DeliveryStatus

pytestmark = race_marks()


def test_four_workers_at_once_send_each_event_once(two_player_campaign, receiver, settings, at_once):
    settings.DEBUG = True  # the loopback receiver
    campaign = two_player_campaign["campaign"]
    services.webhook_set(campaign=campaign, url=receiver.url)
    for _ in range(12):
        campaigns.cycle_advance(campaign=campaign)

    def work():
        services.events_expand(limit=3)
        services.events_expand(limit=20)
        services.deliveries_send(limit=50)

    assert at_once(4, work) == ["done"] * 4
    assert Delivery.objects.count() == 12
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.DELIVERED}
    assert sorted(text.split("\n")[0] for text in receiver.texts) == sorted(
        f"**Dust Falls**: Cycle {n} has begun." for n in range(2, 14)
    )

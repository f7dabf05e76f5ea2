"""Demo data every app adds to, so each page has something real to show.

``python manage.py demo`` runs :data:`STEPS` in order; each step is idempotent and takes
the ``demo`` user. Later apps append their own step here.
"""

from django.contrib.auth import get_user_model

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo"


def demo_user():
    """The ``demo`` user with password ``demo`` (reset each run, so the login always works)."""
    user, _ = get_user_model().objects.get_or_create(username=DEMO_USERNAME, defaults={"email": "demo@example.com"})
    user.set_password(DEMO_PASSWORD)
    user.save(update_fields=["password"])
    return user


STEPS: list[str] = [
    "content.demo.load_demo_content",
    "gangs.demo.build_demo_gangs",
    # After the gangs step: a 2018+ campaign, Cycle 1 fought, with the demo gangs and two more players.
    "campaigns.demo.build_demo_campaign",
    # After the campaigns step: it applies the Cycle 1 post-battle sequences and begins Cycle 2.
    "postbattle.demo.build_demo_post_battle",
    # After the gangs step: a battle in progress between the demo user's gang and the rival's.
    "battles.demo.build_demo_battle",
]

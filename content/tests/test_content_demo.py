from io import StringIO

import pytest

from content.demo import load_demo_content
from content.models import House
from tools import demo


@pytest.mark.django_db
def test_demo_loads_the_content_first_and_is_idempotent():
    assert demo.STEPS[0] == "content.demo.load_demo_content"  # the gangs step buys from these lists
    out = StringIO()
    load_demo_content(user=None, stdout=out)
    load_demo_content(user=None, stdout=out)
    assert out.getvalue() == "Content loaded.Content already up to date."
    # The six Houses and nine more gang lists; Gang Additions is no gang list.
    assert House.objects.filter(edition="n18", kind="gang_list").count() == 15

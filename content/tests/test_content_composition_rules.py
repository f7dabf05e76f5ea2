"""The loader's handling of composition rules that name fighter types, on a small data folder: a bad rule refused
naming its place, a rule over types stored with the types' full slugs."""

import pytest

from content.loader import ContentFileError, load_content
from content.models import House

pytestmark = pytest.mark.django_db


def _with_rule(small_data, rule):
    house = small_data["classic/houses.json"]
    house["composition"]["rules"].append(rule)
    return small_data


@pytest.mark.parametrize(
    "rule, message",
    [
        ({"kind": "min_count", "types": ["warlord"], "count": 1}, "'warlord' is not a fighter type of this house"),
        ({"kind": "not_fewer", "categories": ["juve"]}, "than_categories: names no fighter category or type"),
        ({"kind": "max_count", "categories": ["leader"]}, "count: is required"),
        ({"kind": "most", "categories": ["leader"]}, "kind: must be one of"),
        ({"kind": "max_per", "categories": ["leader"], "per_categories": ["juve"]}, "per: is required"),
        ({"kind": "max_per", "categories": ["leader"], "per": 3}, "per_categories: names no fighter category or type"),
        (
            {"kind": "min_count", "types": ["juve"], "count": 1, "when_types": ["warlord"]},
            "when_types: 'warlord' is not",
        ),
        (
            {"kind": "min_count", "types": ["juve"], "count": 1, "when_categories": ["boss"]},
            "'boss' is not a fighter cat",
        ),
    ],
)
def test_a_bad_composition_rule_is_refused_naming_the_place(write_data, small_data, rule, message):
    with pytest.raises(ContentFileError, match=message):
        load_content(data_dir=write_data(_with_rule(small_data, rule)))
    assert not House.objects.exists()


def test_rules_over_types_are_stored_with_full_slugs(write_data, small_data):
    rule = {"kind": "not_fewer", "types": ["juve"], "than_categories": ["leader"]}
    load_content(data_dir=write_data(_with_rule(small_data, rule)))
    stored = House.objects.get(slug="escher").composition_rules[-1]
    assert stored == {"kind": "not_fewer", "types": ["escher-juve"], "than_categories": ["leader"]}


def test_a_rule_that_waits_for_a_fighter_names_it_by_its_full_slug(write_data, small_data):
    """The Enforcers' founding rule waits for a Captain of its kind (``when_types``, rulebook.gang_rules)."""
    rule = {"kind": "min_count", "types": ["juve"], "count": 2, "founding": True, "when_types": ["leader"]}
    load_content(data_dir=write_data(_with_rule(small_data, rule)))
    stored = House.objects.get(slug="escher").composition_rules[-1]
    assert stored == {**rule, "types": ["escher-juve"], "when_types": ["escher-leader"]}

"""Every composition rule the 2018+ gang lists state as data is checked by ``rulebook.gang_rules``: for each list
(the six Houses and the gang lists of ``rulebook/data/n18``), a roster built to break each rule gets a message
that the same roster without the rule does not, a founding rule stops holding after the first battle, a rule that
waits for a fighter (``when_types``) holds only with one, and a hire that breaks a maximum is refused in the
words the gang page uses. The rules a list states that the app does not check are named in docs/content.md."""

import json
from pathlib import Path

import pytest

from rulebook import gang_rules

DATA = Path(gang_rules.__file__).parent / "data" / "n18"


def _lists() -> list[tuple[str, gang_rules.HouseRules]]:
    """Each gang list as the loader reads it: the house's own composition, else its file's."""
    found = []
    for path in sorted(DATA.glob("*.json")):
        document = json.loads(path.read_text())
        for house in document.get("houses", []):
            composition = house.get("composition") or document.get("composition") or {}
            if "additions" in (house.get("kind"), composition.get("kind")):
                continue  # Hangers-on, Brutes and Hired Guns: their limits are tested with the gang additions
            types = tuple(
                gang_rules.TypeLimit(
                    t["slug"], t["name"], t["category"], t.get("min_per_gang") or 0, t.get("max_per_gang")
                )
                for t in house["fighter_types"]
            )
            rules = gang_rules.HouseRules(
                house["name"], types, composition.get("min_fighters"), tuple(composition["rules"])
            )
            found.append((house["slug"], rules))
    return found


LISTS = _lists()


def _members(house: gang_rules.HouseRules, rule: dict, prefix: str = "") -> list[str]:
    categories, types = rule.get(f"{prefix}categories") or (), rule.get(f"{prefix}types") or ()
    return [t.slug for t in house.types if t.category in categories or t.slug in types]


def _breaking(house: gang_rules.HouseRules, rule: dict) -> list[str]:
    """A roster that breaks ``rule``: too many of its fighters, too few, or the wrong balance."""
    kind, members = rule["kind"], _members(house, rule)
    if kind == "max_count":
        return [members[0]] * (rule["count"] + 1)
    if kind == "min_count":
        return []
    if kind == "max_share":
        return [members[0]]
    if kind == "min_share":
        return [next(t.slug for t in house.types if t.slug not in members)]
    if kind == "not_fewer":
        return [next(s for s in _members(house, rule, "than_") if s not in members)]
    assert kind == "max_per", kind
    return [members[0]] * (rule.get("at_least", 0) + 1)


def _messages(house: gang_rules.HouseRules, roster: list[str], *, founding: bool, without: int | None = None) -> set:
    rules = tuple(r for i, r in enumerate(house.share_rules) if i != without)
    house = gang_rules.HouseRules(house.name, house.types, house.min_fighters, rules)
    return {b.message for b in gang_rules.composition_breaches(house, roster, founding=founding)}


def _rule_cases():
    for slug, house in LISTS:
        for index, rule in enumerate(house.share_rules):
            yield pytest.param(house, index, rule, id=f"{slug}-{index}-{rule['kind']}")


@pytest.mark.parametrize("house, index, rule", list(_rule_cases()))
def test_every_rule_a_list_states_is_checked(house, index, rule):
    waits_for = _members(house, rule, "when_")[:1]
    roster = waits_for + _breaking(house, rule)
    own = _messages(house, roster, founding=True) - _messages(house, roster, founding=True, without=index)
    assert own, f"{house.name}: nothing checks {rule}"
    if rule.get("founding"):
        assert all(m.endswith("while the gang is founded, before its first battle") for m in own)
        assert not own & _messages(house, roster, founding=False)  # behind it after the first battle
    if waits_for:
        assert all(m.startswith(f"with a {house.limit_for(waits_for[0]).name}, ") for m in own)
        assert not own & _messages(house, roster[1:], founding=True)  # no such fighter, no rule
    if rule["kind"] in ("max_count", "max_share", "max_per") and roster:
        # The last fighter's hire is refused with the message the gang page gives the roster.
        refused = gang_rules.hire_breaches(house, roster[:-1], roster[-1], founding=True)
        assert own <= {b.message for b in refused}


@pytest.mark.parametrize("house", [house for _, house in LISTS], ids=[slug for slug, _ in LISTS])
def test_every_fighter_type_limit_a_list_states_is_checked(house):
    for limit in house.types:
        if limit.max_per_gang is not None:
            too_many = [limit.slug] * (limit.max_per_gang + 1)
            assert f"max-{limit.slug}" in {b.rule for b in gang_rules.composition_breaches(house, too_many)}
        if limit.min_per_gang:
            assert f"min-{limit.slug}" in {b.rule for b in gang_rules.composition_breaches(house, [])}

"""The rules an imported gang must keep: it must be a gang that could have been built here.

:func:`roster_problems` reads a file whose shape :mod:`gangs.exchange` has already checked and
returns every breach in plain words, each starting with the fighter's name:

- each fighter type is on the house's list, hired at the list's price;
- each stat line is the type's, changed only by the recorded advancements (one step better each) and
  Lasting (2018+) or Serious (classic) Injuries (exactly what the edition's table gives for that result,
  read from ``rulebook``), and an injury gives only the skills its table result gives;
- each item is on the fighter's equipment list or sold by the Trading Post for that edition
  (:func:`gangs.services.trading_post_allows`), at the content's price; an item the file marks with an
  ``override`` reason (an arbitrator let it through) is accepted and the import writes that override into
  the ledger, so it is never silent;
- the composition maximums hold (what a hire here would refuse; minimums wait for play, as here).
"""

from __future__ import annotations

from collections import Counter

from content.models import Edition, FighterTypeEquipment
from gangs.models import ON_ROSTER, STATS_BY_EDITION
from gangs.services import TYPE_STAT_FIELDS, house_rules, trading_post_allows
from gangs.services.record import INJURY_RULES
from rulebook import gang_rules
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import TARGET_NUMBER_CHARACTERISTICS


def roster_problems(data: dict, content: dict, *, composition: bool = True) -> list[str]:
    house = content["house"]
    edition = house.edition
    # The house's lists and those of the Hangers-on and Brutes it may recruit (exchange._importable_types).
    lists = {
        (entry.fighter_type_id, entry.equipment_id): (entry.cost, entry.is_included)
        for entry in FighterTypeEquipment.objects.filter(fighter_type__in=content["types"].values())
    }
    rules = _Rules(edition, lists, content)
    problems: list[str] = []
    for fighter in data["fighters"]:
        problems += rules.fighter(fighter)
    for item in data.get("stash_items", []):
        problems += rules.stash_item(item)
    if composition:
        problems += rules.composition([f for f in data["fighters"] if f["status"] in ON_ROSTER])
    return problems


class _Rules:
    def __init__(self, edition: str, lists: dict, content: dict) -> None:
        self.edition = edition
        self.lists = lists
        self.content = content
        self.injuries = INJURY_RULES[edition]
        house_of = {t.pk: t.house_id for t in content["types"].values()}
        self.house_listed = {e for (t, e) in lists if house_of.get(t) == content["house"].pk}
        self.with_list = {t for t, _ in lists}

    def shown(self, code: str, value: int) -> str:
        return f"{value}+" if self.edition == Edition.N18 and code in TARGET_NUMBER_CHARACTERISTICS else str(value)

    def fighter(self, data: dict) -> list[str]:
        name = data["name"].strip()
        fighter_type = self.content["types"][data["type"]]
        problems = []
        price = fighter_type.cost_for(self.content["house"])  # a gang addition may cost some houses less
        if data["cost"] != price:
            problems.append(f"{name}: hired for {data['cost']} credits, but a {fighter_type.name} costs {price}")
        problems += self.stat_line(name, fighter_type, data)
        for item in data.get("equipment", []):
            problem = self.item(item, fighter_type)
            if problem:
                problems.append(f"{name}: {problem}")
        return problems

    def stat_line(self, name: str, fighter_type, data: dict) -> list[str]:
        problems = []
        base = {code: getattr(fighter_type, TYPE_STAT_FIELDS[code]) for code in STATS_BY_EDITION[self.edition]}
        recorded = Counter()
        for advancement in data.get("advancements", []):
            changes = advancement.get("stat_changes", [])
            if len(changes) > 1:
                problems.append(
                    f"{name}: the advancement '{advancement['description']}' changes more than one characteristic"
                )
            for change in changes:
                better = self.injuries.step(change["stat"], "improve")
                if change["delta"] != better:
                    problems.append(
                        f"{name}: the advancement '{advancement['description']}' changes {change['stat']} by "
                        f"{change['delta']:+d}; an advancement makes a characteristic one step better ({better:+d})"
                    )
                recorded[change["stat"]] += change["delta"]
        for injury in data.get("injuries", []):
            problems += self.injury(name, injury)
            for change in injury.get("stat_changes", []):
                recorded[change["stat"]] += change["delta"]
        for change in data.get("stat_changes", []):
            problems.append(
                f"{name}: {change['stat']} {change['delta']:+d} comes from neither an advancement nor an injury"
            )
        final = {code: data["base_stats"][code] + recorded[code] for code in base}
        for code, value in base.items():
            if data["base_stats"][code] != value:
                problems.append(
                    f"{name}: {code} {self.shown(code, final[code])} does not follow from {fighter_type.name}'s "
                    f"{self.shown(code, value)} and the recorded advancements and injuries"
                )
        return problems

    def injury(self, name: str, injury: dict) -> list[str]:
        table = self.injuries.table
        try:
            row = self.injuries.row_for_slug(injury["code"])
        except StopIteration:
            return [f"{name}: {injury['name']} ({injury['code']!r}) is not a result of the {table.title} table"]
        allowed = [row.details["effects"], row.details.get("repeat_effects", row.details["effects"])]
        recorded = Counter()
        for change in injury.get("stat_changes", []):
            recorded[change["stat"]] += change["delta"]
        gives = {e["skill"] for effects in allowed for e in effects if e["kind"] == "skill"}
        for slug in injury.get("skills", []):
            skill = self.content["skills"][slug]
            if skill.name not in gives:
                return [f"{name}: {row.result} does not give {skill.name} by the {table.title} table"]
        if all(recorded != self._deltas(effects) for effects in allowed):
            expected = self._deltas(row.details["effects"])
            says = ", ".join(f"{code} {delta:+d}" for code, delta in expected.items()) or "no change"
            has = ", ".join(f"{code} {delta:+d}" for code, delta in recorded.items()) or "no change"
            return [f"{name}: {row.result} gives {says} to the stat line by the {table.title} table, not {has}"]
        return []

    def _deltas(self, effects: list) -> Counter:
        out = Counter()
        for effect in effects:
            if effect["kind"] == "characteristic":
                out[effect["characteristic"]] += self.injuries.step(effect["characteristic"], effect["change"])
        return out

    def item(self, item: dict, fighter_type) -> str:
        equipment = self.content["equipment"][item["equipment"]]
        if item.get("override"):
            return ""
        listed = self.lists.get((fighter_type.pk, equipment.pk))
        # Hangers-on and Brutes take only what their card lists, as do Hired Guns with a list of their own
        # (gangs.services.equipment._list_only); included kit comes with the fighter at no price.
        list_only = fighter_type.is_addition and (
            fighter_type.category in gang_rules.REPUTATION_CAPPED or fighter_type.pk in self.with_list
        )
        if listed is not None and listed[1] and item["price"] == 0:
            return ""  # kit the fighter was hired holding, part of its price
        if listed is not None and not listed[1]:
            price, where = listed[0], f"the {fighter_type.name}'s list"
        elif not list_only and trading_post_allows(self.edition, equipment):
            price, where = equipment.cost, "the Trading Post"
        elif list_only:
            return f"{equipment.name} is not on the {fighter_type.name}'s card, and a {fighter_type.name} takes nothing else"
        else:
            return f"{equipment.name} is not on the {fighter_type.name}'s list and the Trading Post does not sell it"
        if item["price"] != price:
            return f"{equipment.name} costs {price} credits from {where}, not {item['price']}"
        return ""

    def stash_item(self, item: dict) -> list[str]:
        equipment = self.content["equipment"][item["equipment"]]
        if item.get("override"):
            return []
        if equipment.pk not in self.house_listed and not trading_post_allows(self.edition, equipment):
            return [
                f"The Stash: {equipment.name} is on no {self.content['house'].name} list and the Trading Post does not sell it"
            ]
        if equipment.cost is not None and item["price"] != equipment.cost:
            return [f"The Stash: {equipment.name} costs {equipment.cost} credits, not {item['price']}"]
        return []

    def composition(self, on_roster: list[dict]) -> list[str]:
        house = self.content["house"]
        try:
            # Hangers-on and Brutes count toward no other fighter's limit (gangs.services.roster_types).
            types = [f["type"] for f in on_roster if not self.content["types"][f["type"]].is_addition]
            breaches = gang_rules.composition_breaches(house_rules(house), types)
        except RulesInputError as error:
            return [error.message]
        return [f"{house.name}: {b.message}" for b in breaches if b.maximum]

"""The rules an imported gang must keep: it must be a gang that could have been built here.

:func:`roster_problems` reads a file whose shape :mod:`gangs.exchange` has already checked and
returns every breach in plain words, each starting with the fighter's name:

- each fighter type is on the house's list, hired at the list's price;
- each stat line is the type's, changed only by the recorded advancements (one step better each) and
  Lasting (2018+) or Serious (classic) Injuries (exactly what the edition's table gives for that result,
  read from ``rulebook``), and an injury gives only the skills its table result gives;
- each item is on the fighter's equipment list or sold by the Trading Post for that edition
  (:func:`gangs.selectors.trading_post_allows`), at the content's price; an item the file marks with an
  ``override`` reason (an arbitrator let it through) is accepted and the import writes that override into
  the ledger, so it is never silent;
- every advancement is one the rules sell or roll: its experience cost and credit value are the Advancements
  table's (2018+: by characteristic, times taken and fighter category, by skill access, chosen or random; a
  Ganger's 6 XP roll at its row's value; classic: rolled, no cost or value, no more than the experience
  thresholds passed), a skill comes from a table the fighter has access to, a characteristic is raised no
  more often than the rules' maxima allow, and a fighter has skills only from advancements and injuries;
- the composition maximums hold (what a hire here would refuse; minimums wait for play, as here).

What the rules allow but no recorded history here explains (a Stash above what a new gang keeps, experience,
Reputation, injuries, statuses, an ``override`` the file claims) is not refused: :func:`roster_flags` lists it,
the import writes the list into its ledger entries, and the gang page, the fighter cards and an arbitrator
deciding on the gang see it (:func:`gangs.selectors.import_flags`).
"""

from __future__ import annotations

from collections import Counter

from content.models import Edition, FighterTypeEquipment, SkillAccess
from gangs.models import ON_ROSTER, STATS_BY_EDITION
from gangs.selectors import house_rules, trading_post_allows
from gangs.selectors.record import INJURY_RULES
from gangs.services import TYPE_STAT_FIELDS
from rulebook import gang_rules
from rulebook.classic.campaign import experience as classic_experience
from rulebook.errors import RulesInputError
from rulebook.n18 import advancement as ganger_rules
from rulebook.n18.campaign.lasting_injury import characteristic_text


def roster_problems(data: dict, content: dict, *, composition: bool = True) -> list[str]:
    house = content["house"]
    edition = house.edition
    # The house's lists and those of the Hangers-on and Brutes it may recruit (exchange._importable_types).
    lists = {
        (entry.fighter_type_id, entry.equipment_id): (entry.cost, entry.is_included)
        for entry in FighterTypeEquipment.objects.filter(fighter_type__in=content["types"].values())
    }
    access: dict[int, dict[int, str]] = {}
    for type_id, table_id, level in SkillAccess.objects.filter(fighter_type__in=content["types"].values()).values_list(
        "fighter_type_id", "table_id", "level"
    ):
        access.setdefault(type_id, {})[table_id] = level
    rules = _Rules(edition, lists, content, access)
    problems: list[str] = []
    for fighter in data["fighters"]:
        problems += rules.fighter(fighter)
    for item in data.get("stash_items", []):
        problems += rules.stash_item(item)
    if composition:
        problems += rules.composition([f for f in data["fighters"] if f["status"] in ON_ROSTER])
    return problems


class _Rules:
    def __init__(self, edition: str, lists: dict, content: dict, access: dict) -> None:
        self.edition = edition
        self.access = access
        self.lists = lists
        self.content = content
        self.injuries = INJURY_RULES[edition]
        house_of = {t.pk: t.house_id for t in content["types"].values()}
        self.house_listed = {e for (t, e) in lists if house_of.get(t) == content["house"].pk}
        self.with_list = {t for t, _ in lists}

    def shown(self, code: str, value: int) -> str:
        return characteristic_text(code, value) if self.edition == Edition.N18 else str(value)

    def fighter(self, data: dict) -> list[str]:
        name = data["name"].strip()
        fighter_type = self.content["types"][data["type"]]
        problems = []
        price = fighter_type.cost_for(self.content["house"])  # a gang addition may cost some houses less
        if data["cost"] != price:
            problems.append(f"{name}: hired for {data['cost']} credits, but a {fighter_type.name} costs {price}")
        problems += self.stat_line(name, fighter_type, data)
        problems += self.advancements(name, fighter_type, data)
        problems += self.skills(name, data)
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

    # --- advancements and skills ---------------------------------------------------------------

    def advancements(self, name: str, fighter_type, data: dict) -> list[str]:
        """Each advancement's shape, cost and value by the edition's rules (the module docstring)."""
        advancements = data.get("advancements", [])
        problems = []
        for advancement in advancements:
            problem = self._shape(advancement)
            if problem:
                problems.append(f"{name}: the advancement '{advancement['description']}' {problem}")
        if problems:
            return problems
        if self.edition == Edition.CLASSIC:
            return self._classic(name, fighter_type, data)
        return self._n18(name, fighter_type, advancements)

    @staticmethod
    def _shape(advancement: dict) -> str:
        changes, skills = advancement.get("stat_changes", []), advancement.get("skills", [])
        kind = advancement["kind"]
        if kind == "characteristic" and (len(changes) != 1 or skills):
            return "must raise exactly one characteristic and give no skill"
        if kind == "skill" and (len(skills) != 1 or changes):
            return "must give exactly one skill and change no characteristic"
        if kind == "other":
            return "is of no kind an advancement here can be (a characteristic or a skill)"
        return ""

    def _skill_of(self, advancement: dict):
        return self.content["skills"][advancement["skills"][0]]

    def _classic(self, name: str, fighter_type, data: dict) -> list[str]:
        problems = []
        advancements = data.get("advancements", [])
        for advancement in advancements:
            if advancement["xp_cost"] or advancement["value"]:
                problems.append(
                    f"{name}: the advancement '{advancement['description']}' costs {advancement['xp_cost']} XP and "
                    f"adds {advancement['value']} credits; a classic advance is rolled and adds neither"
                )
            if advancement["kind"] == "skill":
                skill = self._skill_of(advancement)
                faces = [d.get("value") for d in advancement.get("dice", [])[:2]]
                any_table = all(isinstance(f, int) for f in faces) and sum(faces) in (2, 12) and len(faces) == 2
                if not any_table and skill.table_id not in self.access.get(fighter_type.pk, {}):
                    problems.append(
                        f"{name}: {skill.name} is a {skill.table.name} skill, not one of a {fighter_type.name}'s "
                        "skill tables (any table only on an advance roll of 2 or 12)"
                    )
        start, now = data["starting_experience"], data["experience"]
        due = classic_experience.advances_gained(start, max(start, now))
        if len(advancements) > due:
            problems.append(
                f"{name}: {len(advancements)} advances recorded, but {now} experience (joined with {start}) "
                f"passes only {due} advance threshold{'' if due == 1 else 's'}"
            )
        return problems

    def _n18(self, name: str, fighter_type, advancements: list) -> list[str]:
        category = fighter_type.category
        if advancements and category in ("hanger_on", "hired_gun"):
            return [f"{name}: a {fighter_type.get_category_display()} never gains Advancements"]
        # A Specialist promoted from Ganger took the Gangers' table until (and with) the promotion.
        promotion = next((i for i, a in enumerate(advancements) if " becomes a " in a["description"]), None)
        rolled_until = len(advancements) - 1 if category == "ganger" else (promotion if promotion is not None else -1)
        problems, taken = [], Counter()
        for index, advancement in enumerate(advancements):
            stat = advancement["stat_changes"][0]["stat"] if advancement["stat_changes"] else None
            try:
                if index <= rolled_until:
                    xp, value, problem = self._ganger_roll(advancement, stat, fighter_type, index == promotion)
                else:
                    xp, value, problem = self._bought(advancement, stat, fighter_type, taken)
            except RulesInputError as error:
                xp, value, problem = None, None, error.message
            if problem:
                problems.append(f"{name}: the advancement '{advancement['description']}': {problem}")
            elif (advancement["xp_cost"], advancement["value"]) != (xp, value):
                problems.append(
                    f"{name}: the advancement '{advancement['description']}' costs {xp} XP and is worth {value} "
                    f"credits by the Advancements table, not {advancement['xp_cost']} XP and {advancement['value']}"
                )
            if stat:
                taken[stat] += 1
        for stat, times in taken.items():
            limit = ganger_rules.RAISE_LIMITS.get(stat)
            if limit is not None and times > limit:
                problems.append(
                    f"{name}: {stat} raised {times} times by advancements; the rules allow at most {limit} above "
                    f"the fighter's profile ({ganger_rules.SOURCE.split(' (')[0]}, Maximum Characteristics)"
                )
        return problems

    def _ganger_roll(self, advancement: dict, stat, fighter_type, promotion: bool) -> tuple:
        if stat:
            rows = [row for row in ganger_rules.GANGER_ADVANCEMENT.rows if stat in row.details["choices"]]
            if not rows:
                return None, None, f"{stat} is not on the Gangers' Advancement table"
            return ganger_rules.GANGER_XP, rows[0].details["value"], ""
        if not promotion:
            return None, None, "a Ganger gains a skill only when promoted to Specialist (a 2 or 12 on their table)"
        skill = self._skill_of(advancement)
        if self.access.get(fighter_type.pk, {}).get(skill.table_id) != "primary":
            return (
                None,
                None,
                f"a new {fighter_type.name} takes a skill from a Primary Skill Set, not {skill.table.name}",
            )
        value = ganger_rules.GANGER_ADVANCEMENT.lookup(12)["value"]
        return ganger_rules.GANGER_XP, value, ""

    def _bought(self, advancement: dict, stat, fighter_type, taken: Counter) -> tuple:
        category = fighter_type.category
        if stat:
            cost = gang_rules.n18_characteristic_cost(stat, category=category, times_taken=taken[stat])
            return cost.xp, cost.value, ""
        skill = self._skill_of(advancement)
        level = self.access.get(fighter_type.pk, {}).get(skill.table_id)
        if level is None:
            return None, None, f"a {fighter_type.name} has no access to the {skill.table.name} skills"
        chosen = gang_rules.n18_skill_cost(access=level, random=False, category=category)
        rolled = gang_rules.n18_skill_cost(access=level, random=True, category=category)
        # The file does not say how the skill was picked: either published cost, with its own value.
        for cost in (chosen, rolled):
            if (advancement["xp_cost"], advancement["value"]) == (cost.xp, cost.value):
                return cost.xp, cost.value, ""
        return chosen.xp, chosen.value, ""

    def skills(self, name: str, data: dict) -> list[str]:
        """Skills come from advancements and injuries here, each once."""
        problems = []
        for slug in data.get("skills", []):
            skill = self.content["skills"][slug]
            problems.append(f"{name}: {skill.name} comes from neither an advancement nor an injury")
        held = [
            slug
            for part in [data, *data.get("advancements", []), *data.get("injuries", [])]
            for slug in part.get("skills", [])
        ]
        for slug, count in Counter(held).items():
            if count > 1:
                problems.append(f"{name}: {self.content['skills'][slug].name} is recorded {count} times")
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
        # (gangs.selectors.equipment._list_only); included kit comes with the fighter at no price.
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
            # Hangers-on and Brutes count toward no other fighter's limit (gangs.selectors.roster_types).
            types = [f["type"] for f in on_roster if not self.content["types"][f["type"]].is_addition]
            breaches = gang_rules.composition_breaches(house_rules(house), types)
        except RulesInputError as error:
            return [error.message]
        return [f"{house.name}: {b.message}" for b in breaches if b.maximum]


# --- what no recorded history explains ---------------------------------------------------------------


def roster_flags(data: dict, content: dict, *, signed: bool) -> tuple[list[str], list[list[str]]]:
    """What a file that keeps the rules still brings without a history here to explain it: the gang's flags and
    each fighter's (in the file's order). A new gang keeps its house's starting credits less what it paid for its
    fighters and kit, no Reputation beyond the founding value, and fighters with their starting experience, no
    injuries, active; anything more was earned in battles this site has not recorded. ``signed``: the file is
    exactly what this site exported (exchange.file_signature), so nothing in it was edited since."""
    house = content["house"]
    gang: list[str] = []
    if not signed:
        gang.append(
            "The file is not as this site exported it (edited since, or from elsewhere): its statuses, injuries "
            "and experience are as the file says, with no recorded history behind them."
        )
    spent = sum(f["cost"] + sum(i["price"] for i in f.get("equipment", [])) for f in data["fighters"])
    spent += sum(i["price"] for i in data.get("stash_items", []))
    kept = max(0, house.starting_credits - spent)
    if data["stash"] > kept:
        gang.append(
            f"The Stash holds {data['stash']:,} credits: {data['stash'] - kept:,} more than a new {house.name} gang "
            f"keeps of its {house.starting_credits:,} starting credits after paying {spent:,} for its fighters and "
            "kit, from battles no record here shows."
        )
    if data["reputation"] > 0:
        gang.append(f"Reputation {data['reputation']}, from battles no record here shows.")
    gang += [_override_flag("The Stash", item, content) for item in data.get("stash_items", []) if item.get("override")]
    fighters = [_fighter_flags(fighter, content) for fighter in data["fighters"]]
    return gang, fighters


def _override_flag(holder: str, item: dict, content: dict) -> str:
    equipment = content["equipment"][item["equipment"]]
    return (
        f"{holder}: {equipment.name} for {item['price']} credits by an arbitrator's override the file claims "
        f"({item['override'].strip()}); no arbitrator here has accepted it."
    )


def _fighter_flags(data: dict, content: dict) -> list[str]:
    name = data["name"].strip()
    flags = [_override_flag(name, item, content) for item in data.get("equipment", []) if item.get("override")]
    spent = sum(a["xp_cost"] for a in data.get("advancements", []))
    earned = data["experience"] + spent - data["starting_experience"]
    parts = []
    if earned > 0:
        parts.append(f"{earned} XP earned" + (f" ({spent} of it spent on advancements)" if spent else ""))
    elif data.get("advancements"):
        parts.append(f"{len(data['advancements'])} advancement{'s' if len(data['advancements']) > 1 else ''}")
    if data["kills"]:
        parts.append(f"{data['kills']} kill{'s' if data['kills'] > 1 else ''}")
    if data.get("injuries"):
        parts.append(", ".join(i["name"] for i in data["injuries"]))
    if data["status"] not in ("active", "retired"):
        parts.append(f"status {data['status']}")
    if parts:
        flags.append(f"{name}: {'; '.join(parts)}: from battles no record here shows.")
    return flags

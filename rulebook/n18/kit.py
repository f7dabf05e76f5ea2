"""2018+ kit that changes a characteristic: bionics, which undo a Lasting Injury's loss, and chems, which change a
fighter for one battle.

Sources (numbers are facts; the wording here is ours): the 2023 core rulebook's Armoury as the necrovox pages give
it, read through the copy in the public repository yakuzadave/necroman_v2
(``necrovox_docs/Necromunda_Docs/12-armoury/14-bionics.md`` and ``17-chems.md``):

- Bionics: each replaces the body part one Lasting Injury harmed. A Mundane bionic raises one characteristic the
  injury lowered by one step (the owner picks which when the injury lowered two); an Improved one raises both. A
  fighter cannot fix one injury with two Mundane bionics, and an injury that lowered one characteristic has no
  Improved bionic. Lobo chip: Humiliated (Ld, Cl); cortex-cogitator: Head Injury (Int, Wil); bionic eye: Eye
  Injury (BS); bionic arm: Hand Injury (WS); bionic leg: Hobbled (M); skeletal enhancers: Spinal Injury (S);
  aortic supercharger: Enfeebled (T).
- Chems last one battle. 'Slaught: Weapon Skill and Initiative become 2+ and Attacks +1. Spur: Movement +2 and
  Initiative 2+; in each End phase after it is taken, 2D6 + Toughness of 10 or more wears it off. Frenzon gives Nerves
  of Steel, True Grit, Unstoppable and Berserker, and makes the fighter's weapons Reckless. Icrotic Slime: on taking
  it, a check for each of Movement, Strength, Toughness, Initiative, Attacks and Cool, each passed improving that
  characteristic by D3; Leadership, Intelligence and Willpower drop to 10+ while it lasts. Ghast: on taking it a D6,
  1 the Insane condition, 2-5 a random Wyrd Power, 6 both. Kalma: before each action 2D6 + Toughness, 11 or less the
  action is wasted, 12 or more shakes it off for the rest of the battle. Obscura: Movement becomes D6" (moved in full,
  in a straight line) and weapons Reckless; in an End phase the player may roll 2D6 + Toughness, 12 or more shakes it
  off, after which the fighter makes one action an activation. Stinger Mould is not taken before a battle: it is used
  after a Lasting Injury roll (anything but Memorable Death becomes Out Cold) or in the post-battle sequence's sixth
  step (5+ on a D6 undoes one Lasting Injury).
- One chem bought is one dose, used once and then gone ("Chem Suppliers"). Each chem's side effect is in
  :data:`CHEMS` (``side_effect``), in our words; more than one chem at once risks a bad reaction (:data:`MIXING`).
- The checks a chem asks for during the battle (:func:`odds`, :func:`roll`; the ``chem`` action): wearing off or
  shaking off (:data:`SHAKE_OFF`), Ghast's D6 and Icrotic Slime's six checks when taken. A characteristic check is
  the 2018+ test of that characteristic: a D6 equal to or under Movement, Strength, Toughness or Attacks (the plain
  numbers), a D6 reaching Initiative, 2D6 reaching Cool (``rulebook.n18.checks``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebook.dice import D3, TWO_D6, DiceSource, probability
from rulebook.errors import RulesInputError
from rulebook.n18 import checks
from rulebook.n18.campaign.lasting_injury import TARGET_NUMBER_CHARACTERISTICS
from rulebook.output import dist, prob
from rulebook.query import Query


def availability(rarity: str) -> str:
    """A Trading Post availability as the 2023 book prints it: "R9" is Rare (9), "I10" Illegal (10)."""
    text = (rarity or "").strip()
    if text[:1] in ("R", "I") and text[1:].isdigit():
        return f"{'Rare' if text[0] == 'R' else 'Illegal'} ({text[1:]})"
    return text


@dataclass(frozen=True)
class Bionic:
    injury: str  # the Lasting Injury's slug (rulebook.n18.campaign.lasting_injury)
    characteristics: tuple[str, ...]  # what it may restore
    improved: bool = False  # restores every characteristic the injury lowered


BIONICS = {
    "lobo-chip-mundane": Bionic("humiliated", ("Ld", "Cl")),
    "lobo-chip-improved": Bionic("humiliated", ("Ld", "Cl"), improved=True),
    "cortex-cogitator-mundane": Bionic("head-injury", ("Int", "Wil")),
    "cortex-cogitator-improved": Bionic("head-injury", ("Int", "Wil"), improved=True),
    "bionic-eye": Bionic("eye-injury", ("BS",)),
    "bionic-arm": Bionic("hand-injury", ("WS",)),
    "bionic-leg": Bionic("hobbled", ("M",)),
    "skeletal-enhancers": Bionic("spinal-injury", ("S",)),
    "aortic-supercharger": Bionic("enfeebled", ("T",)),
}


def bionic(slug: str) -> Bionic | None:
    return BIONICS.get(slug)


def bionic_restores(item: Bionic, lowered: dict[str, int], choice: str | None = None) -> dict[str, int]:
    """What a bionic gives back of an injury's losses ``lowered`` ({characteristic: the change the injury made}):
    each restored characteristic with the opposite change. A Mundane bionic restores one: ``choice``, or the first
    the injury lowered that it can restore."""
    restorable = [c for c in item.characteristics if lowered.get(c)]
    if not restorable:
        raise RulesInputError("bionic", f"the {item.injury} injury lowered nothing this bionic restores")
    if item.improved:
        if len(restorable) < 2:
            raise RulesInputError("bionic", "an Improved bionic is for an injury that lowered two characteristics")
        return {c: -lowered[c] for c in restorable}
    if choice is not None and choice not in restorable:
        raise RulesInputError("choice", f"must be one of {', '.join(restorable)}, not {choice!r}")
    chosen = choice or restorable[0]
    return {chosen: -lowered[chosen]}


@dataclass(frozen=True)
class Chem:
    add: tuple[tuple[str, int], ...] = ()  # characteristic, change (Movement and Attacks)
    best: tuple[tuple[str, int], ...] = ()  # target-number characteristic, the value it improves to
    worst: tuple[tuple[str, int], ...] = ()  # target-number characteristic, the value it falls to at best
    skills: tuple[str, ...] = ()
    note: str = ""
    # What the chem leaves behind, for the card and the dose's ledger entry; those settled after the battle are rolled
    # in the post-battle sequence (rulebook.n18.campaign.post_battle: Ghast, Icrotic Slime, addiction).
    side_effect: str = ""
    # Stinger Mould is used after a Lasting Injury roll, not before a battle: its dose stays with the fighter.
    taken_before_battle: bool = True
    # What of its effect the assistant leaves to the table, and why (listed on the fighter's card).
    not_modelled: str = ""


CHEMS = {
    "slaught": Chem(
        add=(("A", 1),),
        best=(("WS", 2), ("I", 2)),
        side_effect="Wrap-up: a failed Toughness check makes the fighter addicted (without a dose WS and I 5+, A 1; "
        "with one WS and I 3+, no extra Attack) until they go into Recovery by choice after a battle",
    ),
    "spur": Chem(
        add=(("M", 2),),
        best=(("I", 2),),
        note="in each End phase 2D6 + Toughness of 10 or more wears it off",
        side_effect="none beyond wearing off: in each End phase 2D6 + Toughness of 10 or more ends it",
    ),
    "frenzon": Chem(
        skills=("Nerves of Steel", "True Grit", "Unstoppable", "Berserker"),
        note="all weapons Reckless; must move toward or charge the nearest enemy",
        side_effect="Wrap-up: a Toughness check at +2 on the dice, failed, makes the fighter addicted (joins a crew only "
        "with a dose) until 2D6x10 credits of anti-addiction chems are bought",
        not_modelled="Reckless weapons and the move toward the nearest enemy are the table's: the assistant does not "
        "choose targets or moves",
    ),
    "ghast": Chem(
        note="on taking it a D6: 1 Insane, 2-5 a random Wyrd Power, 6 both",
        side_effect="after the battle a Willpower test, failed: Willpower worsens by 1; a natural 12: Insane at the start "
        "of every battle from now on",
        not_modelled="its D6 is rolled and logged, but the Insane condition and the Wyrd Power it gives are played at "
        "the table: the assistant models neither psychic powers nor Insane",
    ),
    "icrotic-slime": Chem(
        worst=(("Ld", 10), ("Int", 10), ("Wil", 10)),
        note="on taking it a check each for M, S, T, I, A and Cl: each passed improves it by D3",
        side_effect="after the battle 2D6: 2 the fighter dies, 3-11 Into Recovery, 12 a Lasting Injury roll (Bitter "
        "Enmity, Captured, Critical Injury and Memorable Death re-rolled)",
    ),
    "kalma": Chem(
        note="before each action 2D6 + Toughness: 11 or less the action is lost, 12 or more it wears off",
        side_effect="none",
        not_modelled="given to a captive in the Rescue scenario: not a scenario the assistant plays",
    ),
    "obscura": Chem(
        note="moves the full distance rolled in a straight line; End phase 2D6 + Toughness of 12 or more may end it",
        side_effect="once it wears off, one action per activation for the rest of the battle; Wrap-up: a failed "
        "Toughness check makes the fighter addicted (joins a crew on a 4+) until 2D6x10 credits of anti-addiction chems",
        not_modelled='its Movement of D6" is in the charge odds, but moving it in full in a straight line, Reckless '
        "weapons and one action an activation once it wears off are the table's: the assistant neither moves "
        "fighters nor counts actions",
    ),
    "stinger-mould": Chem(
        note="used after a Lasting Injury roll (all but Memorable Death become Out Cold) or in the post-battle "
        "sequence (5+ on a D6 undoes one Lasting Injury)",
        side_effect="none",
        taken_before_battle=False,
        not_modelled="not taken before the battle: the post-battle sequence offers its dose on a Lasting Injury roll; "
        "using it instead to undo a Lasting Injury the fighter already has (5+ on a D6) is the player's to apply",
    ),
}

# Taking a chem while under another: roll a D6; at or under the number of chems taken (this one counted) the fighter
# goes Out of Action, into Recovery with no Lasting Injury roll. Starting a battle under two or more, the check is made
# at the fighter's first activation (necrovox 17-chems.md, "Side Effects, Duration And Mixing Chems").
MIXING = (
    "under {count} chems: at their first activation a D6 of {count} or less takes them Out of Action (into Recovery)"
)

# 2D6 + Toughness reaching this number: Spur wears off (each End phase), Kalma is shaken off (before each action; less
# wastes the action), Obscura is shaken off (an End phase, if the player wishes).
SHAKE_OFF = {"spur": 10, "kalma": 12, "obscura": 12}
# Chems whose effect is rolled when they are taken: Ghast's D6, Icrotic Slime's checks.
ON_TAKING = ("ghast", "icrotic-slime")
ICROTIC_CHECKS = ("M", "S", "T", "I", "A", "Cl")
GHAST = {1: "insane", 6: "both"}  # any other face: a random Wyrd Power
# The chems with a roll in the battle, and that roll in words.
CHEM_NAMES = {
    "spur": "Spur",
    "kalma": "Kalma",
    "obscura": "Obscura",
    "ghast": "Ghast",
    "icrotic-slime": "Icrotic Slime",
}
CHEM_ROLLS = {
    "spur": "does Spur wear off? (2D6 + Toughness, 10+)",
    "kalma": "Kalma, before an action (2D6 + Toughness: 12+ shakes it off, less wastes the action)",
    "obscura": "shake off Obscura? (2D6 + Toughness, 12+)",
    "ghast": "Ghast taken: its D6 (1 Insane, 2-5 a Wyrd Power, 6 both)",
    "icrotic-slime": "Icrotic Slime taken: a check each for M, S, T, I, A and Cl, each passed D3 better",
}


def chem(slug: str) -> Chem | None:
    return CHEMS.get(slug)


def taken_before_battle(slug: str) -> bool:
    """Whether a dose of the chem ``slug`` is taken when the battle starts: every chem but Stinger Mould (a house
    rule's chem too)."""
    return slug not in CHEMS or CHEMS[slug].taken_before_battle


def under_chems(stats: dict[str, int], slugs: list[str]) -> tuple[dict[str, int], list[str], list[str]]:
    """A stat line under the chems taken for a battle: the changed stats, the skills they give, and what else
    the table must remember. Chems without an effect on characteristics change nothing here."""
    out, skills, notes = dict(stats), [], []
    for slug in slugs:
        item = CHEMS.get(slug)
        if item is None:
            continue
        for code, change in item.add:
            if code in out:
                out[code] += change
        for code, value in item.best:
            if code in out:
                out[code] = min(out[code], value)
        for code, value in item.worst:
            if code in out:
                out[code] = max(out[code], value)
        skills += [s for s in item.skills if s not in skills]
        if item.note:
            notes.append(item.note)
    taken = len({s for s in slugs if s in CHEMS})
    if taken > 1:
        notes.append(MIXING.format(count=taken))
    return out, skills, notes


def still_working(slugs: list[str], worn_off: list[str]) -> list[str]:
    """The chems taken whose effect lasts: those not worn or shaken off."""
    return [slug for slug in slugs if slug not in worn_off]


def stats_in_battle(base: dict[str, int], slugs: list[str], worn_off: list[str], gains: dict[str, int]) -> dict:
    """The stat line now: ``base`` (before any chem) under the chems still working, with what Icrotic Slime's passed
    checks gained (``gains``: steps of improvement, each characteristic's own way: a target number lower, to 2+ at
    best, any other higher) while it lasts."""
    working = still_working(slugs, worn_off)
    out = under_chems(base, working)[0]
    if "icrotic-slime" in working:
        for code, gain in gains.items():
            if code in out:
                out[code] = max(2, out[code] - gain) if code in TARGET_NUMBER_CHARACTERISTICS else out[code] + gain
    return out


def shake_off_chance(slug: str, toughness: int) -> Fraction:
    """2D6 + Toughness reaching the chem's number (:data:`SHAKE_OFF`)."""
    return probability(TWO_D6, lambda total: total + toughness >= SHAKE_OFF[slug])


def _check_chance(code: str, value: int) -> Fraction:
    if code in ("M", "A"):  # plain numbers tested like Strength and Toughness: a D6 equal to or under
        return checks.roll_under_test(value)
    return checks.p_characteristic(code, value, 0)


def _check_roll(code: str, value: int, dice: DiceSource) -> tuple[int, bool]:
    if code in ("M", "A"):
        face = dice.d6(f"Icrotic Slime: {code} check ({value} or under)")
        return face, face <= value
    return checks.roll_characteristic(code, value, 0, dice)


def _chem_query(query: Query) -> tuple[str, dict]:
    slug = query.choice("chem", (*SHAKE_OFF, *ON_TAKING))
    if slug in SHAKE_OFF:
        return slug, {"T": query.int("T", 1, 10)}
    if slug == "icrotic-slime":
        limits = {"M": (0, 12), "S": (1, 10), "T": (1, 10), "I": (2, 12), "A": (1, 10), "Cl": (2, 12)}
        return slug, {code: query.int(code, *limits[code]) for code in ICROTIC_CHECKS}
    return slug, {}


def odds(query: Query) -> dict:
    """The ``chem`` action's exact odds: the chance to shake a chem off (Spur, Kalma, Obscura: ``T``), Ghast's D6,
    or each of Icrotic Slime's checks passing (its six characteristics given)."""
    slug, values = _chem_query(query)
    if slug in SHAKE_OFF:
        return {"chem": slug, "needs": SHAKE_OFF[slug], **prob("p_pass", shake_off_chance(slug, values["T"]))}
    if slug == "ghast":
        outcome = {"insane": Fraction(1, 6), "wyrd_power": Fraction(4, 6), "both": Fraction(1, 6)}
        return {"chem": slug, **dist("outcome", outcome)}
    out = {"chem": slug}
    for code in ICROTIC_CHECKS:
        out |= prob(f"p_{code}", _check_chance(code, values[code]))
    return out


def roll(query: Query, dice: DiceSource) -> dict:
    """One resolution of the ``chem`` action, every die recorded: ``passed`` (worn or shaken off) for Spur, Kalma
    and Obscura; Ghast's ``outcome``; Icrotic Slime's ``checks`` and the ``gains`` of those passed (a D3 each)."""
    slug, values = _chem_query(query)
    if slug in SHAKE_OFF:
        faces = dice.two_d6(f"{slug}: 2D6 + Toughness {values['T']} (needs {SHAKE_OFF[slug]})")
        total = sum(faces) + values["T"]
        return {"chem": slug, "total": total, "passed": total >= SHAKE_OFF[slug]}
    if slug == "ghast":
        face = dice.d6("Ghast: 1 Insane, 2-5 a Wyrd Power, 6 both")
        return {"chem": slug, "score": face, "outcome": GHAST.get(face, "wyrd_power")}
    results, gains = [], {}
    for code in ICROTIC_CHECKS:
        score, passed = _check_roll(code, values[code], dice)
        gain = dice.roll(D3, f"Icrotic Slime: {code} improves by D3") if passed else 0
        results.append({"characteristic": code, "score": score, "passed": passed, "gain": gain})
        if gain:
            gains[code] = gain
    return {"chem": slug, "checks": results, "gains": gains}


def side_effects(slugs: list[str]) -> list[str]:
    """What each chem taken leaves behind, as "Name: effect" lines for the battle's record."""
    return [f"{slug}: {CHEMS[slug].side_effect}" for slug in dict.fromkeys(slugs) if slug in CHEMS]

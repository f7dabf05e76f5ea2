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
  Initiative 2+ (it may wear off in an End phase: 2D6 + Toughness of 10 or more). Frenzon gives Nerves of Steel,
  True Grit, Unstoppable and Berserker, and makes the fighter's weapons Reckless. The others (Ghast, Icrotic Slime,
  Kalma, Obscura, Stinger Mould) act through tests or the post-battle sequence and change no characteristic here.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.errors import RulesInputError


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
    skills: tuple[str, ...] = ()
    note: str = ""


CHEMS = {
    "slaught": Chem(add=(("A", 1),), best=(("WS", 2), ("I", 2))),
    "spur": Chem(
        add=(("M", 2),),
        best=(("I", 2),),
        note="in each End phase 2D6 + Toughness of 10 or more wears it off",
    ),
    "frenzon": Chem(
        skills=("Nerves of Steel", "True Grit", "Unstoppable", "Berserker"),
        note="all weapons Reckless; must move toward or charge the nearest enemy",
    ),
}


def chem(slug: str) -> Chem | None:
    return CHEMS.get(slug)


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
        skills += [s for s in item.skills if s not in skills]
        if item.note:
            notes.append(item.note)
    return out, skills, notes

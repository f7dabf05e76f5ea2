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
  True Grit, Unstoppable and Berserker, and makes the fighter's weapons Reckless. Icrotic Slime drops Leadership,
  Intelligence and Willpower to 10+ while it lasts (its M, S, T, I, A and Cl checks are rolled at the table). The
  others (Ghast, Kalma, Obscura, Stinger Mould) act through tests or the post-battle sequence and change no
  characteristic here.
- One chem bought is one dose, used once and then gone ("Chem Suppliers"). Each chem's side effect is in
  :data:`CHEMS` (``side_effect``), in our words; more than one chem at once risks a bad reaction (:data:`MIXING`).
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
    worst: tuple[tuple[str, int], ...] = ()  # target-number characteristic, the value it falls to at best
    skills: tuple[str, ...] = ()
    note: str = ""
    side_effect: str = ""  # what the chem leaves behind, for the table and the post-battle sequence
    # Its side effect is settled once the battle is over (a test at the Wrap-up or after the battle), so the
    # post-battle sequence names it for the player (:func:`after_battle`).
    after_battle: bool = False


CHEMS = {
    "slaught": Chem(
        add=(("A", 1),),
        best=(("WS", 2), ("I", 2)),
        side_effect="Wrap-up: a failed Toughness check makes the fighter addicted (without a dose WS and I 5+, A 1; "
        "with one WS and I 3+, no extra Attack) until they go into Recovery by choice after a battle",
        after_battle=True,
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
        after_battle=True,
    ),
    "ghast": Chem(
        note="on taking it a D6: 1 Insane, 2-5 a random Wyrd Power, 6 both",
        side_effect="after the battle a Willpower test, failed: Willpower worsens by 1; a natural 12: Insane at the start "
        "of every battle from now on",
        after_battle=True,
    ),
    "icrotic-slime": Chem(
        worst=(("Ld", 10), ("Int", 10), ("Wil", 10)),
        note="on taking it a check each for M, S, T, I, A and Cl: each passed improves it by D3",
        side_effect="after the battle 2D6: 2 the fighter dies, 3-11 Into Recovery, 12 a Lasting Injury roll (Bitter "
        "Enmity, Captured, Critical Injury and Memorable Death re-rolled)",
        after_battle=True,
    ),
    "kalma": Chem(
        note="before each action 2D6 + Toughness: 11 or less the action is lost, 12 or more it wears off",
        side_effect="none",
    ),
    "obscura": Chem(
        note="moves the full distance rolled in a straight line; End phase 2D6 + Toughness of 12 or more may end it",
        side_effect="once it wears off, one action per activation for the rest of the battle; Wrap-up: a failed "
        "Toughness check makes the fighter addicted (joins a crew on a 4+) until 2D6x10 credits of anti-addiction chems",
        after_battle=True,
    ),
    "stinger-mould": Chem(
        note="used after a Lasting Injury roll (all but Memorable Death become Out Cold) or in the post-battle "
        "sequence (5+ on a D6 undoes one Lasting Injury)",
        side_effect="none",
    ),
}

# Taking a chem while under another: roll a D6; at or under the number of chems taken (this one counted) the fighter
# goes Out of Action, into Recovery with no Lasting Injury roll. Starting a battle under two or more, the check is made
# at the fighter's first activation (necrovox 17-chems.md, "Side Effects, Duration And Mixing Chems").
MIXING = (
    "under {count} chems: at their first activation a D6 of {count} or less takes them Out of Action (into Recovery)"
)


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


def side_effects(slugs: list[str]) -> list[str]:
    """What each chem taken leaves behind, as "Name: effect" lines for the battle's record."""
    return [f"{slug}: {CHEMS[slug].side_effect}" for slug in dict.fromkeys(slugs) if slug in CHEMS]


def after_battle(slugs: list[str]) -> list[str]:
    """The side effects of the chems taken that are settled after the battle (addiction at the Wrap-up, Ghast's
    Willpower test, Icrotic Slime's 2D6), one a chem. The player rolls them: addiction and Ghast's lasting madness
    are states the roster does not keep, and Icrotic Slime's 12 sends the fighter to a Lasting Injury table with
    its own re-rolls."""
    return [CHEMS[slug].side_effect for slug in dict.fromkeys(slugs) if slug in CHEMS and CHEMS[slug].after_battle]

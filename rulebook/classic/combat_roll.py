"""Hand-to-hand combat on the dice: one bout, a multiple combat, breaking off; every die and step shown.

Follows the same rules as :mod:`rulebook.classic.combat_score` (the fighters and who wins) and
:mod:`rulebook.classic.combat` (what the hits do), which hold the exact odds (1995 rulebook, Hand-to-Hand
Combat; seed-notes 9 and 10). Here the dice come from a
:class:`~rulebook.dice.DiceSource`; ``parry`` and ``hate_reroll`` set to ``"auto"`` decide
exactly as the odds assume, so a roll always lies in the odds' support.
"""

from __future__ import annotations

from dataclasses import replace

from rulebook.classic import resolution
from rulebook.classic.combat import NOT_HIT, finished, struck_with, worse
from rulebook.classic.combat_score import ATTACKER, DEFENDER, STANDOFF, Combatant, net, parries, verdict, winner_of
from rulebook.classic.resolution import DOWN, NO_WOUND, OUT_OF_ACTION, Target
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError

# --- one fight on dice --------------------------------------------------------------------------


def _roll_dice(dice: DiceSource, n: int, who: str, why: str = "Attack die") -> list[int]:
    return [dice.d6(f"{why} {i + 1} of {n} ({who})") for i in range(n)]


def _score(fighter: Combatant, rolled: list[int], opponent_rolled: list[int]) -> dict:
    """The Combat Score worked out the rulebook's way, every part shown."""
    highest = max(rolled) if rolled else 0
    criticals = max(0, rolled.count(6) - 1)
    fumbles = opponent_rolled.count(1)
    total = highest + fighter.base_score + criticals + fumbles
    return {
        "dice": list(rolled),
        "highest": highest,
        "WS": 0 if fighter.broken else fighter.WS,
        "critical_hits": criticals,
        "opponent_fumbles": fumbles,
        "modifiers": fighter.score_modifiers(),
        "score": total,
    }


def _current_winner(att: Combatant, dfn: Combatant, rolls: dict) -> str:
    return winner_of(
        att, dfn, net(tuple(sorted(rolls[ATTACKER], reverse=True))), net(tuple(sorted(rolls[DEFENDER], reverse=True)))
    )


def _hate_positions(fighter: Combatant, side: str, winner: str, rolled: list[int]) -> list[int]:
    choice = fighter.hate_reroll
    if isinstance(choice, tuple):
        for pos in choice:
            if not 1 <= pos <= len(rolled):
                raise RulesInputError(f"{side}.hate_reroll", f"die {pos} does not exist; {len(rolled)} were rolled")
        return sorted(set(choice))
    if choice is True or winner != side:
        return list(range(1, len(rolled) + 1))
    return []


def strike_roll(striker: Combatant, target: Target, hits: int, dice: DiceSource, who: str) -> tuple[dict, str, Target]:
    """Resolve the hits one after another on the dice: the steps, the worst outcome, the fighter after."""
    worst = NO_WOUND if hits else NOT_HIT
    results = []
    for i, weapon in enumerate(struck_with(striker.weapons, hits)):
        if worst == OUT_OF_ACTION:
            break
        hit = weapon.hit(striker.S)
        result = resolution.hit_roll(hit, target, dice, who=f"{who}, hit {i + 1} of {hits}")
        results.append({"hit": i + 1, "weapon": weapon.name, "strength": hit.strength, **result.as_json()})
        worst = worse(worst, result.outcome)
        target = result.target_after(target)
    return {"hits": results, "outcome": worst}, worst, target


def fight_roll(att: Combatant, dfn: Combatant, dice: DiceSource) -> dict:
    """One one-on-one bout on the dice: Attack dice, hate re-rolls, parries, scores, winner, hits, injuries."""
    return _bout_roll(att, dfn, dice, True, dfn.as_target())[0]


def _bout_roll(att: Combatant, dfn: Combatant, dice: DiceSource, one_on_one: bool, target: Target) -> tuple:
    """A bout on the dice and the defender as it leaves him (``target``: as earlier bouts left him)."""
    fighters = {ATTACKER: att, DEFENDER: dfn}
    rolls = {side: _roll_dice(dice, f.dice, side) for side, f in fighters.items()}
    steps: list[dict] = [{"step": "attack dice", ATTACKER: list(rolls[ATTACKER]), DEFENDER: list(rolls[DEFENDER])}]
    for side, fighter in fighters.items():
        if not fighter.hates:
            continue
        positions = _hate_positions(fighter, side, _current_winner(att, dfn, rolls), rolls[side])
        for pos in positions:
            rolls[side][pos - 1] = dice.d6(f"hatred: {side} re-rolls Attack die {pos}")
        steps.append({"step": "hatred re-roll", "fighter": side, "dice_rerolled": positions, "now": list(rolls[side])})
    for side, fighter in fighters.items():
        target_side = DEFENDER if side == ATTACKER else ATTACKER
        for _ in range(parries(fighter, fighters[target_side])):
            winner = _current_winner(att, dfn, rolls)
            if not (fighter.parry is True or winner == target_side):
                steps.append({"step": "parry", "fighter": side, "used": False, "why": "opponent would not win"})
                break
            target_dice = rolls[target_side]
            pos = target_dice.index(max(target_dice))
            old = target_dice[pos]
            target_dice[pos] = dice.d6(f"parry: {target_side} re-rolls his highest Attack die ({old})")
            steps.append({"step": "parry", "fighter": side, "used": True, "rerolled": old, "now": list(target_dice)})
    scores = {
        ATTACKER: _score(att, rolls[ATTACKER], rolls[DEFENDER]),
        DEFENDER: _score(dfn, rolls[DEFENDER], rolls[ATTACKER]),
    }
    winner, hits = verdict(scores[ATTACKER]["score"] - scores[DEFENDER]["score"], att.I, dfn.I)
    answer = {"steps": steps, "scores": scores, "winner": winner, "hits": hits}
    if winner == STANDOFF:
        answer["why"] = "equal scores and equal Initiative: a stand-off, no blows struck"
        return answer, target
    if hits == 1 and scores[ATTACKER]["score"] == scores[DEFENDER]["score"]:
        answer["why"] = "equal scores: the higher Initiative wins with 1 hit"
    loser = DEFENDER if winner == ATTACKER else ATTACKER
    answer["loser"] = loser
    struck = target if loser == DEFENDER else att.as_target()
    answer["wounds"], worst, after = strike_roll(fighters[winner], struck, hits, dice, loser)
    if finished(worst, one_on_one) != worst:
        answer["wounds"]["finished_off"] = "down in a one-on-one fight: out of action"
        answer["wounds"]["outcome"] = OUT_OF_ACTION
    return answer, after if loser == DEFENDER else target


def multi_fight_roll(fighter: Combatant, opponents: list[Combatant], dice: DiceSource) -> dict:
    """The outnumbered fighter against each opponent in turn, while he stands (Multiple Combats)."""
    bouts = []
    now = fighter.as_target()
    for k, opponent in enumerate(opponents):
        opponent = replace(opponent, extra_dice=opponent.extra_dice + k, bonus=opponent.bonus + k)
        me = replace(fighter, WS=fighter.WS - now.flesh_wounds, wounds_left=now.wounds_left)
        bout, now = _bout_roll(opponent, me, dice, False, now)
        bouts.append({"opponent": k + 1, "extra_dice": k, "bonus": k, **bout})
        if bout["winner"] == ATTACKER and bout["wounds"]["outcome"] in (DOWN, OUT_OF_ACTION):
            return {"bouts": bouts, "fighter": OUT_OF_ACTION, "why": "the lone fighter went down or out of action"}
    return {
        "bouts": bouts,
        "fighter": "standing",
        "fighter_WS": fighter.WS - now.flesh_wounds,
        "fighter_wounds_left": now.wounds_left,
    }


def break_off_roll(opponent: Combatant, fleeing: Combatant, dice: DiceSource) -> dict:
    wounds, _, _ = strike_roll(
        replace(opponent, weapons=opponent.weapons[:1]), fleeing.as_target(), 1, dice, "fleeing fighter"
    )
    return {"why": ["one automatic hit as he breaks from combat"], **wounds}

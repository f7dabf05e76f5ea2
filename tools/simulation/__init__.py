"""A whole campaign played by the machine: the integrity harness behind ``manage.py simulate_campaign``.

:mod:`.gangs` founds the players' gangs through the roster services, :mod:`.battle` plays a battle through the
battle assistant's services with a simple seeded policy, :mod:`.invariants` checks what must hold after every
step, and :mod:`.campaign` drives the campaign from joining to the last cycle: pairings, challenges and Rescue
Missions, scenario rolls, battles, confirmed reports, each gang's post-battle sequence, the next cycle.

Every die is the server's kind of die (a :class:`rulebook.dice.SeededDice`, so a seed replays a campaign), and
every change goes through the same services the pages call, so what the harness finds is what a club would.
"""

from tools.simulation.campaign import SimulationResult, simulate
from tools.simulation.invariants import InvariantBroken

__all__ = ["InvariantBroken", "SimulationResult", "simulate"]

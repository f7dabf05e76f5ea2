"""The rules of Necromunda in pure Python.

No Django, no settings, no I/O beyond the data files under ``rulebook/data`` and the
command line in ``rulebook.cli``. Two editions live side by side: ``classic`` (the 1995
rulebook) and ``n18`` (the 2018+ rules); what both share (dice, exact distributions,
query parsing) lives at the top of the package.

Every probability is exact: outcomes are enumerated over the dice as ``fractions.Fraction``,
never sampled. Every roll goes through a :class:`rulebook.dice.DiceSource`, so the same
code resolves a real roll, a seeded one and dice a player entered from the table.
"""

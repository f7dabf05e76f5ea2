"""The classic edition (the 1995 rulebook): its actions and tables for the command line and the apps.

Every module with something for the command line lists it in module-level tuples, gathered here:
``ACTIONS`` (:class:`rulebook.editions.Action`), ``TABLES`` (a :class:`rulebook.tables.Table`,
or a :class:`rulebook.tables.Chart` for charts read by a characteristic) and ``BENCHMARKS``
((label, action, query) for ``python -m rulebook bench``) with ``BENCHMARK_TARGETS_MS``.
"""

from rulebook.classic import campaign, checks, combat_actions, shooting_actions

_MODULES = (shooting_actions, combat_actions, checks, campaign)

ACTIONS: dict = {a.name: a for m in _MODULES for a in getattr(m, "ACTIONS", ())}
TABLES: dict = {t.name: t for m in _MODULES for t in getattr(m, "TABLES", ())}
BENCHMARKS: list = [b for m in _MODULES for b in getattr(m, "BENCHMARKS", ())]
BENCHMARK_TARGETS_MS: dict = {k: v for m in _MODULES for k, v in getattr(m, "BENCHMARK_TARGETS_MS", {}).items()}

"""The n18 edition (the 2018+ rules): its actions, tables and benchmarks for the command line and the apps.

Each table and action is defined in the module that implements its rule and registered here.
"""

from rulebook.n18.resolution import INJURY_DICE

ACTIONS: dict = {}
TABLES: dict = {table.name: table for table in (INJURY_DICE,)}
BENCHMARKS: list = []

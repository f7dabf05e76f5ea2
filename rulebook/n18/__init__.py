"""The n18 edition: its actions and tables for the command line and the apps."""

ACTIONS: dict = {}
TABLES: dict = {}
BENCHMARKS: list = []

"""The classic Income chart: what a gang keeps of its territory income after its upkeep.

Source: S3, the classic rulebook p93 as scanned at
https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/93 (Collecting
Income): each fighter who did not go out of action works one territory, never more than ten in all;
the total is read against the number of models in the gang, and the chart gives the profit that goes
to the Stash. The fan site http://203.ip-92-222-88.eu/webxp/necromunda/income.html has the same chart
without its 230-299 row; we follow the scan.

Readings of our own, said where they are used: an income above the chart's last row (669) reads that
row, a gang of more than 21 models reads the last column, and a total below 0 (a Gambling Den's
loss) reads the first row.
"""

from __future__ import annotations

from bisect import bisect_right

from rulebook.errors import RulesInputError

SOURCE = (
    "S3 classic rulebook p93 (https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/93)"
)
MAX_TERRITORIES_WORKED = 10
MODEL_BANDS = (1, 4, 7, 10, 13, 16, 19)  # columns 1-3, 4-6, ... 19-21
# (lowest income of the row, profit for each column of models)
INCOME_CHART = (
    (0, (15, 10, 5, 0, 0, 0, 0)),
    (30, (25, 20, 15, 5, 0, 0, 0)),
    (50, (35, 30, 25, 15, 5, 0, 0)),
    (80, (50, 45, 40, 30, 20, 5, 0)),
    (120, (65, 60, 55, 45, 35, 15, 0)),
    (170, (85, 80, 75, 65, 55, 35, 15)),
    (230, (105, 100, 95, 85, 75, 55, 35)),
    (300, (120, 115, 110, 100, 90, 65, 45)),
    (380, (135, 130, 125, 115, 105, 80, 55)),
    (460, (145, 140, 135, 125, 115, 90, 65)),
    (560, (155, 150, 145, 135, 125, 100, 70)),
)
CHART_TOP = 669


def gang_profit(income: int, models: int) -> dict:
    """The profit a gang of ``models`` fighters keeps from ``income`` credits of territory income."""
    if models < 1:
        raise RulesInputError("models", f"a gang has at least one model, not {models}")
    notes = []
    if income > CHART_TOP:
        notes.append(f"income above {CHART_TOP} reads the chart's last row (our reading)")
    if models > 21:
        notes.append("more than 21 models reads the last column (our reading)")
    row = max(0, bisect_right([low for low, _ in INCOME_CHART], max(income, 0)) - 1)
    column = bisect_right(MODEL_BANDS, models) - 1
    low = INCOME_CHART[row][0]
    high = INCOME_CHART[row + 1][0] - 1 if row + 1 < len(INCOME_CHART) else CHART_TOP
    return {
        "income": income,
        "models": models,
        "row": f"{low}-{high}",
        "profit": INCOME_CHART[row][1][column],
        "notes": notes,
        "source": SOURCE,
    }

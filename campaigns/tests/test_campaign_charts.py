"""The SVG charts' geometry: one line per gang, scaled into the plot, in the order snapshots were taken."""

from types import SimpleNamespace

from campaigns.charts import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, standing_chart


def snap(gang_id, name, rating, reputation, reason="cycle"):
    return SimpleNamespace(
        gang_id=gang_id, gang=SimpleNamespace(name=name), rating=rating, reputation=reputation, reason=reason
    )


def test_lines_span_the_plot_and_scale_from_zero():
    snaps = [snap(1, "Rats", 500, 1), snap(2, "Bats", 1000, 2), snap(1, "Rats", 1000, 3)]
    chart = standing_chart(snaps, "rating")
    bats, rats = chart.lines  # by name
    assert (bats.name, rats.name) == ("Bats", "Rats")
    assert rats.points == f"{LEFT}.0,{(TOP + (HEIGHT - TOP - BOTTOM) / 2):.1f} {WIDTH - RIGHT}.0,{TOP}.0"
    assert bats.last == 1000 and rats.last == 1000
    assert chart.y_ticks[0] == (HEIGHT - BOTTOM, 0)
    assert bats.colour != rats.colour


def test_reputation_chart_and_empty_chart():
    assert standing_chart([], "reputation").is_empty
    chart = standing_chart([snap(1, "Rats", 0, 0)], "reputation")
    assert chart.title == "Reputation" and chart.lines[0].last == 0

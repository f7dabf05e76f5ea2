"""The fighter's side checked again, with the codes 0009 gave it (``attacker``, ``defender``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0009_sides_are_attacker_and_defender"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="battlefighter",
            constraint=models.CheckConstraint(
                condition=models.Q(("side__in", ["attacker", "defender"])), name="battle_fighter_side_valid"
            ),
        ),
    ]

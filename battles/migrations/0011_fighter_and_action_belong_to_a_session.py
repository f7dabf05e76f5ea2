"""A fighter in play and a logged action belong to a ``session`` (a BattleSession), not a ``battle``: that name is
kept for the campaign's battle. Nothing but names changes; the action's two unique constraints name the field, so
they are dropped before the rename and made again after it (the migration state does not rename constraint fields).
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0010_fighter_side_checked_as_attacker_or_defender"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="battleaction",
            options={"ordering": ["session", "-number"]},
        ),
        migrations.RemoveConstraint(
            model_name="battleaction",
            name="battle_action_number_once",
        ),
        migrations.RemoveConstraint(
            model_name="battleaction",
            name="battle_action_token_once",
        ),
        migrations.RenameField(
            model_name="battleaction",
            old_name="battle",
            new_name="session",
        ),
        migrations.RenameField(
            model_name="battlefighter",
            old_name="battle",
            new_name="session",
        ),
        migrations.AddConstraint(
            model_name="battleaction",
            constraint=models.UniqueConstraint(fields=("session", "number"), name="battle_action_number_once"),
        ),
        migrations.AddConstraint(
            model_name="battleaction",
            constraint=models.UniqueConstraint(
                condition=models.Q(("token", ""), _negated=True),
                fields=("session", "token"),
                name="battle_action_token_once",
            ),
        ),
    ]

"""Room for the campaign's side codes in the battle assistant's columns (``attacker``, ``defender`` where they held
``a``, ``b``): the first of three steps, 0009 renames the values and 0010 checks them again. Three migrations, so
that on PostgreSQL no table is altered in the transaction that updated its rows ("pending trigger events")."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0007_merge_0006_action_token_0006_battle_session_in_play"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="battlefighter",
            name="battle_fighter_side_valid",
        ),
        migrations.AlterField(
            model_name="battleaction",
            name="side",
            field=models.CharField(
                blank=True,
                choices=[("attacker", "Attacker"), ("defender", "Defender")],
                help_text="The gang a test was for.",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="battleaction",
            name="turn_side",
            field=models.CharField(
                choices=[("attacker", "Attacker"), ("defender", "Defender")], default="attacker", max_length=8
            ),
        ),
        migrations.AlterField(
            model_name="battlefighter",
            name="side",
            field=models.CharField(choices=[("attacker", "Attacker"), ("defender", "Defender")], max_length=8),
        ),
        migrations.AlterField(
            model_name="battlesession",
            name="turn_side",
            field=models.CharField(
                choices=[("attacker", "Attacker"), ("defender", "Defender")],
                default="attacker",
                help_text="Classic: whose turn. 2018+: who has Priority.",
                max_length=8,
            ),
        ),
    ]

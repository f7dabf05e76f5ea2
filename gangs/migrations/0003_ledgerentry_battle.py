import django.db.models.deletion
from django.db import migrations, models


def link_battles(apps, schema_editor):
    """Entries written before the link named their battle in ``data["battle"]``: point them to it."""
    LedgerEntry = apps.get_model("gangs", "LedgerEntry")
    Battle = apps.get_model("campaigns", "Battle")
    battles = set(Battle.objects.values_list("pk", flat=True))
    for entry in LedgerEntry.objects.filter(data__has_key="battle").only("pk", "data"):
        if entry.data["battle"] in battles:
            LedgerEntry.objects.filter(pk=entry.pk).update(battle_id=entry.data["battle"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0001_initial"),
        ("gangs", "0002_fighter_starting_experience"),
    ]

    operations = [
        migrations.AddField(
            model_name="ledgerentry",
            name="battle",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ledger_entries",
                to="campaigns.battle",
            ),
        ),
        migrations.RunPython(link_battles, migrations.RunPython.noop),
    ]

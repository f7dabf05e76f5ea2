# The YakTribe import outbox becomes every large import's (issue 26): renamed, not recreated, so imports waiting
# when the site is upgraded are still imported.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def gang_pages(apps, schema_editor):
    """The imports done before this: their status page now leads to the page the row names."""
    from django.urls import reverse

    for job in apps.get_model("gangs", "FileImport").objects.filter(state="done", gang__isnull=False):
        job.made_url = reverse("gangs:gang-detail", args=[job.gang_id])
        job.save(update_fields=["made_url"])


class Migration(migrations.Migration):
    dependencies = [
        ("gangs", "0011_hired_gun_and_entry_battle_links_move_to_campaigns"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="yaktribeimport", name="yaktribe_import_state_valid"),
        migrations.RenameModel(old_name="YakTribeImport", new_name="FileImport"),
        migrations.AlterField(
            model_name="fileimport",
            name="owner",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="file_imports", to=settings.AUTH_USER_MODEL
            ),
        ),
        migrations.AddField(
            model_name="fileimport",
            name="kind",
            field=models.CharField(
                choices=[
                    ("yaktribe", "Import from YakTribe"),
                    ("gang", "Import a gang"),
                    ("campaign", "Import a campaign"),
                ],
                default="yaktribe",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="fileimport", name="made_url", field=models.CharField(blank=True, max_length=200)
        ),
        migrations.RunPython(gang_pages, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="fileimport",
            constraint=models.CheckConstraint(
                condition=models.Q(("state__in", ["waiting", "done", "refused"])), name="file_import_state_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="fileimport",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["yaktribe", "gang", "campaign"])), name="file_import_kind_valid"
            ),
        ),
    ]

"""One account per email address, in any letter case (issue 26 #15): a unique index on the user's email, lowered,
for the addresses that are set (an account made on the command line may have none).

Accounts that already share an address (made before the signup form checked it): the oldest account keeps it and
the newer ones lose it (blank: their players sign in as before, and set an address again from an administrator's
hand), each named in the migration's output so the administrator can tell them. Refusing to migrate instead would
stop the site's upgrade on data no one can fix from the site.
"""

from django.db import migrations

INDEX = "user_email_unique_ci"


def blank_newer_duplicates(apps, schema_editor):
    User = apps.get_model("auth", "User")
    kept: dict[str, int] = {}
    for user in User.objects.exclude(email="").order_by("date_joined", "pk").only("pk", "username", "email"):
        key = user.email.strip().lower()
        if key in kept:
            print(f"\n  {user.username}: email {user.email!r} cleared, account {kept[key]} (older) keeps it", end="")
            User.objects.filter(pk=user.pk).update(email="")
        else:
            kept[key] = user.pk


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunPython(blank_newer_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(email)) WHERE email <> ''",
            f"DROP INDEX {INDEX}",
        ),
    ]

"""Name the site, so e-mails say "Dominoes" rather than "example.com"."""

from django.db import migrations


def site_name(apps, schema_editor):
    Site = apps.get_model("sites", "Site")
    Site.objects.update_or_create(
        pk=1, defaults={"domain": "localhost:8000", "name": "Dominoes"}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("sites", "0002_alter_domain_unique"),
    ]

    operations = [migrations.RunPython(site_name, migrations.RunPython.noop)]

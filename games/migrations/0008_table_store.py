"""The table store holds no user row (games/stores.py): a seat keeps its player's
username, and ``Seat.user`` and ``Table.host`` are no longer database foreign keys."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def names_fill(apps, schema_editor):
    """Every seated person's username into their seat's name."""
    seat = apps.get_model("games", "Seat")
    user = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    username = user.objects.filter(pk=OuterRef("user_id")).values("username")[:1]
    seat.objects.using(schema_editor.connection.alias).filter(
        user__isnull=False
    ).update(name=Subquery(username))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_seat_offline_at"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="name",
            field=models.CharField(
                blank=True,
                help_text="the username, or a simulated player's generated name",
                max_length=150,
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="user",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="host",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="hosted_tables",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(names_fill, migrations.RunPython.noop),
    ]

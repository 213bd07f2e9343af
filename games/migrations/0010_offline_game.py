"""Offline practice games uploaded by their players (games.offline_upload): each
recorded once per player and once per deal."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_chain_reserve"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="OfflineGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                (
                    "client_id",
                    models.UUIDField(
                        help_text="the id the player's browser gave the game"
                    ),
                ),
                (
                    "seed",
                    models.CharField(
                        help_text="the deal's secret, as hex", max_length=64
                    ),
                ),
                ("finished_at", models.DateTimeField()),
                ("uploaded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "table",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="offline_game",
                        to="games.table",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "client_id"),
                        name="offline_game_once_per_player",
                    ),
                    models.UniqueConstraint(
                        fields=("seed",), name="offline_game_one_deal"
                    ),
                ],
            },
        ),
    ]

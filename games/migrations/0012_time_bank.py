from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_seat_program"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="bank_seconds",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="each seat's time bank; empty = none", null=True
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="bank_ms",
            field=models.PositiveIntegerField(
                blank=True, help_text="time bank left, ms; empty = all of it", null=True
            ),
        ),
    ]

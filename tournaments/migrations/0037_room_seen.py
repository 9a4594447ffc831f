# Each player's last beat in a game room (services/online/presence.py).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0036_botgame_variant"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="a_seen",
            field=models.DateTimeField(
                blank=True, null=True, verbose_name="first player last seen"
            ),
        ),
        migrations.AddField(
            model_name="room",
            name="b_seen",
            field=models.DateTimeField(
                blank=True, null=True, verbose_name="second player last seen"
            ),
        ),
    ]

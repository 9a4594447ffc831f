from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_online_rooms"),
        ("tournaments", "0028_player_gender_pending_signup"),
    ]

    operations = []

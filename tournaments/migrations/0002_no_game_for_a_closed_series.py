"""A database trigger: no game may be added to a finished or forfeited series.

Django's constraints cannot look at another table, so this is a trigger, written for
each database the project runs on (tournaments/models/triggers.py)."""

from django.db import migrations

from tournaments.models.triggers import create_triggers, drop_triggers


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(create_triggers, drop_triggers)]

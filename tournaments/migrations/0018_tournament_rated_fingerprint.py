import uuid

from django.db import migrations, models


def fingerprints(apps, schema_editor):
    """Every tournament its own fingerprint (a default would give them all one)."""
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk in Tournament.objects.values_list("pk", flat=True):
        Tournament.objects.filter(pk=pk).update(fingerprint=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_merge_analysis_start_rating"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="rated",
            field=models.BooleanField(
                default=True,
                help_text="Its finished series count in the players' ratings.",
                verbose_name="rated",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="fingerprint",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(fingerprints, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="fingerprint",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]

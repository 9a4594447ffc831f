"""Jobs: the analysis of a game against the bot is a job; a job's input key (the same job
started again while it waits or runs is the first one) and the code of its refusal."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0032_merges_requests_round_publishing"),
    ]

    operations = [
        migrations.AlterField(
            model_name="job",
            name="kind",
            field=models.CharField(
                choices=[
                    ("verify_games", "verify the game records"),
                    ("recompute", "recompute series and ratings"),
                    ("players_import_csv", "import players from CSV"),
                    ("tournament_import", "import a tournament archive"),
                    ("records_upload", "upload game records"),
                    ("games_analyse", "analyse games"),
                    ("botgame_analyse", "analyse a game against the bot"),
                ],
                max_length=20,
                verbose_name="kind",
            ),
        ),
        migrations.AddField(
            model_name="job",
            name="input_key",
            field=models.CharField(
                blank=True, db_index=True, max_length=64, verbose_name="input key"
            ),
        ),
        migrations.AddField(
            model_name="job",
            name="error_code",
            field=models.CharField(blank=True, max_length=60, verbose_name="error code"),
        ),
        migrations.AddConstraint(
            model_name="job",
            constraint=models.UniqueConstraint(
                condition=models.Q(status__in=["queued", "running"]) & ~models.Q(input_key=""),
                fields=("input_key",),
                name="job_once_while_waiting",
                violation_error_message="the same job is waiting or running already",
            ),
        ),
    ]

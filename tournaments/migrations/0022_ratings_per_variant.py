"""One rating and history per game (variant): docs/ratings.md, "Migration 0022"."""

import django.db.models.deletion
from django.db import migrations, models

from tournaments.migrations._ratings_0022 import ratings_per_variant, ratings_single

VARIANTS = [("long", "long nardy"), ("short", "short backgammon"), ("lurc", "Lurč")]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_merge_rating_change_names"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="player_rating_positive"),
        migrations.RemoveConstraint(model_name="player", name="player_start_rating_positive"),
        migrations.CreateModel(
            name="PlayerRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("variant", models.CharField(choices=VARIANTS, max_length=5, verbose_name="game")),
                ("rating", models.FloatField(default=1500.0, verbose_name="rating")),
                (
                    "start_rating",
                    models.FloatField(
                        default=1500.0,
                        help_text="Where the rating history starts: given on registration or import.",
                        verbose_name="starting rating",
                    ),
                ),
                (
                    "experience",
                    models.PositiveIntegerField(
                        default=0,
                        help_text="Sum of the lengths of the rated series played.",
                        verbose_name="experience",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="tournaments.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating",
                "verbose_name_plural": "ratings",
                "ordering": ["player", "variant"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "variant"),
                        name="player_rating_once_per_variant",
                        violation_error_message="a player has one rating in each game",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("rating__gt", 0)),
                        name="player_rating_positive",
                        violation_error_message="a rating is positive",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("start_rating__gt", 0)),
                        name="player_start_rating_positive",
                        violation_error_message="a rating is positive",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="variant",
            field=models.CharField(
                choices=VARIANTS, default="long", max_length=5, verbose_name="game"
            ),
            preserve_default=False,
        ),
        migrations.AlterModelOptions(
            name="ratingchange",
            options={
                "ordering": ["player", "variant", "at", "id"],
                "verbose_name": "rating change",
                "verbose_name_plural": "rating changes",
            },
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["variant", "at"], name="rating_change_variant_at"),
        ),
        migrations.RunPython(ratings_per_variant, ratings_single),
        migrations.RemoveField(model_name="player", name="experience"),
        migrations.RemoveField(model_name="player", name="rating"),
        migrations.RemoveField(model_name="player", name="start_rating"),
    ]

# A game against the bot is of a variant (long nardy and Lurč against the evaluator, short
# backgammon against GNU Backgammon at its levels); with the cube, whether the user has
# rolled the turn's dice.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0035_online_play_window_reversal_mail"),
    ]

    operations = [
        migrations.AddField(
            model_name="botgame",
            name="variant",
            field=models.CharField(
                choices=[("long", "long nardy"), ("short", "short backgammon"), ("lurc", "Lurč")],
                default="long",
                max_length=5,
                verbose_name="game",
            ),
        ),
        migrations.AddField(
            model_name="botgame",
            name="rolled",
            field=models.BooleanField(default=False, verbose_name="rolled"),
        ),
        migrations.AlterField(
            model_name="botgame",
            name="level",
            field=models.CharField(
                choices=[
                    ("beginner", "beginner"),
                    ("casual", "casual"),
                    ("intermediate", "intermediate"),
                    ("advanced", "advanced"),
                    ("strongest", "strongest"),
                    ("gnubg-beginner", "gnubg beginner"),
                    ("gnubg-intermediate", "gnubg intermediate"),
                    ("gnubg-expert", "gnubg expert"),
                    ("gnubg-worldclass", "gnubg world class"),
                ],
                max_length=24,
                verbose_name="level",
            ),
        ),
    ]

"""A player's grammatical gender (guessed for the players there are from a Czech
feminine surname, -ová or -á, as the forms guess it), and unconfirmed sign-ups marked
as such instead of being read from a missing last sign-in: the sign-ups made before,
inactive, never signed in, not staff and referred to by nothing, are marked."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def feminine(name: str) -> bool:
    words = name.split()
    last = words[-1].casefold() if words else ""
    return len(words) > 1 and last.endswith("á")


def guess_genders(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    women = [p.pk for p in Player.objects.only("pk", "name") if feminine(p.name)]
    Player.objects.filter(pk__in=women).update(gender="f")


def mark_pending(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    PendingSignup = apps.get_model("tournaments", "PendingSignup")
    users = User.objects.filter(
        is_active=False, last_login__isnull=True, is_staff=False, is_superuser=False
    )
    for relation in User._meta.get_fields():
        if relation.name == "pending_signup":
            continue
        if relation.many_to_many or (relation.auto_created and not relation.concrete):
            users = users.exclude(**{f"{relation.name}__isnull": False})
    PendingSignup.objects.bulk_create(
        [PendingSignup(user_id=pk, created=joined) for pk, joined in
         users.values_list("pk", "date_joined")]
    )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("authtoken", "0004_alter_tokenproxy_options"),
        ("tournaments", "0025_seriesreport_verbose_names"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PendingSignup",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="pending_signup",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user account",
                    ),
                ),
                (
                    "created",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="signed up"
                    ),
                ),
            ],
            options={
                "verbose_name": "unconfirmed sign-up",
                "verbose_name_plural": "unconfirmed sign-ups",
            },
        ),
        migrations.AddField(
            model_name="player",
            name="gender",
            field=models.CharField(
                blank=True,
                choices=[("f", "feminine"), ("m", "masculine")],
                help_text="How the pages speak of the player (Czech: odstoupil or odstoupila); blank when not known.",
                max_length=1,
                verbose_name="grammatical gender",
            ),
        ),
        migrations.RunPython(mark_pending, migrations.RunPython.noop),
        migrations.RunPython(guess_genders, migrations.RunPython.noop),
    ]

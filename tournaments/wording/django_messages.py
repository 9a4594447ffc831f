"""Django's own messages that its Czech catalogue still has in an older wording, so that
a Czech page showed them in English ("This password is too short..." beside "Heslo je
příliš běžné."). Written here so that makemessages keeps them in the project's
catalogue, which Django reads before its own (LOCALE_PATHS)."""

from __future__ import annotations

from django.utils.translation import ngettext_lazy

DJANGO_MESSAGES = (
    # django.contrib.auth.password_validation.MinimumLengthValidator (Django 5.2)
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "n",
    ),
)

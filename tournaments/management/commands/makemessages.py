"""Django's makemessages without msgmerge's fuzzy matching: a new message is left
untranslated (and found by tests/test_translations.py) instead of getting a similar
message's Czech, which reads right to nobody ("Statistics" became "Stav", status)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]

"""A signed-in user finds the password change page from the header's account links, on
every page, in English and Czech; an anonymous visitor is offered the sign-in instead."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ACCOUNT_NAV = re.compile(r'<nav aria-label="[^"]*">(.*?)</nav>', re.S)


def _account_links(client: Client, language: str) -> str:
    response = client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    found = ACCOUNT_NAV.search(response.content.decode())
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("language", "label"), [("en", "Change your password"), ("cs", "Změna hesla")]
)
def test_the_header_links_a_signed_in_user_to_the_password_change(
    client: Client, language: str, label: str
) -> None:
    client.force_login(User.objects.create_user("jana", password="a-long-secret-1"))
    nav = _account_links(client, language)
    assert f'<a href="{reverse("password_change")}">{label}</a>' in nav
    assert client.get(reverse("password_change")).status_code == 200


def test_an_anonymous_visitor_is_not_offered_the_password_change(client: Client) -> None:
    nav = _account_links(client, "en")
    assert reverse("password_change") not in nav
    assert reverse("login") in nav

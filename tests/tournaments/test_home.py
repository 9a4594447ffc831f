from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_in_czech_by_default(client: Client) -> None:
    response = client.get(reverse("tournaments:home"))

    assert response.status_code == 200
    assert '<html lang="cs">' in response.content.decode()
    assert "<h1>Turnaje ve vrhcábech</h1>" in response.content.decode()


@pytest.mark.django_db
def test_home_page_in_english_on_request(client: Client) -> None:
    response = client.get(reverse("tournaments:home"), headers={"accept-language": "en"})

    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()
    assert "<h1>Long nardy tournaments</h1>" in response.content.decode()


@pytest.mark.django_db
def test_no_missing_migrations() -> None:
    out = StringIO()
    # Exits with SystemExit(1) if a model change has no migration; the database is
    # needed because makemigrations checks the applied migrations' history too.
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)


@pytest.mark.django_db
def test_database_is_reachable() -> None:
    user = get_user_model().objects.create_user(username="referee", password="x-secret-1")

    assert get_user_model().objects.get(pk=user.pk).username == "referee"

"""A favicon, so that no page makes a 404 for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_pages_link_the_icon_and_favicon_ico_leads_to_it(client: Client):
    html = client.get("/").content.decode()
    assert 'rel="icon" href="/static/favicon.svg"' in html
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    found = finders.find("favicon.svg")
    assert found is not None and "<svg" in Path(found).read_text(encoding="utf-8")

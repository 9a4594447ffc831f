# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
# mypy: disallow-untyped-calls=False
"""The Redoc page without drf-spectacular's Google Fonts links: everything from local
static files (the venue may have no internet). Its theme darkens the colours that fall
short of a 4.5:1 contrast; static/js/api_docs.js mends its headings after each drawing.
Redoc's script comes through :func:`redoc_script`, without the one image it loads from a
CDN."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView

REDOC_PAGE = """{% load i18n static %}{% get_current_language as LANGUAGE_CODE %}<!DOCTYPE html>
<html lang="{{ LANGUAGE_CODE }}">
  <head>
    <title>{{ title }}</title>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; padding: 0; }</style>
    <link rel="stylesheet" href="{% static 'css/api_docs.css' %}">
  </head>
  <body>
    <main lang="en">{# Redoc speaks English #}
      <h1 class="visually-hidden">{{ title }}</h1>
      <redoc spec-url="{{ schema_url }}" theme="{{ theme }}"></redoc>
    </main>
    <script src="{% static 'js/api_docs.js' %}"></script>
    <script src="{{ redoc_standalone }}"></script>
  </body>
</html>
"""

# Redoc reads its theme from the <redoc> element's "theme" attribute, as JSON. Its own
# greens, reds and greys (status codes, error descriptions, "Array of") are lighter than
# a 4.5:1 contrast on their tinted backgrounds.
REDOC_THEME = {
    "colors": {
        "success": {"main": "#17691f"},
        "error": {"main": "#b3161a"},
        "text": {"secondary": "#595959"},
    },
}


REDOC_BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
# Redoc's sidebar ends with "API docs by Redocly" and Redocly's logo, loaded from
# https://cdn.redoc.ly - which the pages' Content-Security-Policy (img-src 'self' data:)
# refuses, and the venue may have no internet: the logo is left out, the link stays.
REDOC_CDN_LOGO = re.compile(r"""[\w$]+\.createElement\("img",\{alt:"redocly logo",[^{}]*\}\)""")


@lru_cache(maxsize=1)
def redoc_bundle() -> bytes:
    """Redoc's standalone script as the sidecar package ships it, without the CDN logo."""
    found = finders.find(REDOC_BUNDLE)
    if not isinstance(found, str):
        raise LookupError(f"{REDOC_BUNDLE} is not among the static files")
    return REDOC_CDN_LOGO.sub("null", Path(found).read_text(encoding="utf-8")).encode()


def redoc_script(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(redoc_bundle(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


class LocalRedocView(SpectacularRedocView):
    @extend_schema(exclude=True)
    def get(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        page = engines["django"].from_string(REDOC_PAGE)
        context = {
            "title": self.title,
            "redoc_standalone": reverse("api:redoc-script"),
            "schema_url": self._get_schema_url(request),
            "theme": json.dumps(REDOC_THEME),
        }
        return HttpResponse(page.render(context, request))

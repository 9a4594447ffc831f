# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
# mypy: disallow-untyped-calls=False
"""The Redoc page without drf-spectacular's Google Fonts links: everything from local
static files (the venue may have no internet). Its theme darkens the colours that fall
short of a 4.5:1 contrast; static/js/api_docs.js mends its headings after each drawing."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.template import engines
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


class LocalRedocView(SpectacularRedocView):
    @extend_schema(exclude=True)
    def get(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        page = engines["django"].from_string(REDOC_PAGE)
        context = {
            "title": self.title,
            "redoc_standalone": self._redoc_standalone(),
            "schema_url": self._get_schema_url(request),
            "theme": json.dumps(REDOC_THEME),
        }
        return HttpResponse(page.render(context, request))

# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
# mypy: disallow-untyped-calls=False
"""The Redoc page without drf-spectacular's Google Fonts links: everything from local
static files (the venue may have no internet)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import engines
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView

REDOC_PAGE = """<!DOCTYPE html>
<html>
  <head>
    <title>{{ title }}</title>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; padding: 0; }</style>
  </head>
  <body>
    <redoc spec-url="{{ schema_url }}"></redoc>
    <script src="{{ redoc_standalone }}"></script>
  </body>
</html>
"""


class LocalRedocView(SpectacularRedocView):
    @extend_schema(exclude=True)
    def get(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        page = engines["django"].from_string(REDOC_PAGE)
        context = {
            "title": self.title,
            "redoc_standalone": self._redoc_standalone(),
            "schema_url": self._get_schema_url(request),
        }
        return HttpResponse(page.render(context, request))

"""While the database cannot be reached (PostgreSQL restarting, a connection refused):
503 "try again in a moment" with Retry-After, in the reader's language, JSON for the API,
instead of a 500. Nothing was written: the request that met the error changed nothing.

The middleware answers the errors of views (the API's too: DRF passes on what its
handler does not answer); ``server_error`` (``handler500``) answers those met before a
view, in a middleware, where Django's own handler would say 500."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

RETRY_AFTER = 5  # seconds: a restart of PostgreSQL takes a few
UNREACHABLE = (OperationalError, InterfaceError)


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer; it reads nothing from the database (the user, the session)."""
    message = _("The database is restarting; try again in a moment.")
    if request.path.startswith("/api/"):
        body = {"detail": message, "code": "database-unavailable",
                "params": {"retry_after": RETRY_AFTER}}  # fmt: skip
        response: HttpResponse = JsonResponse(body, status=503)
    else:
        html = loader.get_template("503.html").render({"message": message})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UNREACHABLE):
            # the database's own words, for whoever reads the log (the page says 503)
            logging.getLogger(__name__).warning("database unavailable: %s", exception)
            return unavailable(request)
        return None


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """Django's 500 page, unless the error is the database's being unreachable."""
    if isinstance(sys.exc_info()[1], UNREACHABLE):
        return unavailable(request)
    return django_server_error(request, template_name)

"""The header's language switch, which needs no CSRF token (docs/performance.md).

Every page's header has the switch, a plain POST form that works without JavaScript. With
a CSRF token in it, every public page would carry a token of its own for each visitor,
and a cookie-less visitor would get a new token and a ``Set-Cookie`` on every page: the
stored public copies could not be served as they are. So the switch is Django's
``set_language`` checked instead by where the request comes from, as browsers tell it:

* ``Sec-Fetch-Site`` (every current browser): only ``same-origin`` (a form of this site)
  or ``none`` (typed, a bookmark) may switch;
* else ``Origin`` (sent by every browser on a form POST since 2020): this site's own, or
  one of ``CSRF_TRUSTED_ORIGINS``; ``null`` (a sandboxed page) may not;
* else ``Referer``, if sent: the same rule;
* a request with none of them comes from no browser that another site can drive into a
  cross-site POST; it may switch.

What a forged switch could do, were it let through, is change the language cookie of the
visitor; it changes nothing in the database. Every other POST of the site (sign in and
out, every director's and player's form) still needs its CSRF token.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils.translation import gettext
from django.views import i18n
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else "null"


def same_origin(request: HttpRequest) -> bool:
    """The request was sent by a page of this site (or typed), as far as the browser says."""
    site = request.META.get("HTTP_SEC_FETCH_SITE")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.META.get("HTTP_ORIGIN")
    if origin is None:
        referer = request.META.get("HTTP_REFERER")
        if referer is None:
            return True  # no browser: nothing to forge
        origin = _origin_of(referer)
    own = f"{request.scheme}://{request.get_host()}"
    return origin == own or origin in settings.CSRF_TRUSTED_ORIGINS


@csrf_exempt
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (the cookie, then back to ``next``), for this site's own
    forms only; no CSRF token needed."""
    if not same_origin(request):
        return HttpResponseForbidden(
            gettext("The language can be switched only from this site's own pages."),
            content_type="text/plain; charset=utf-8",
        )
    return i18n.set_language(request)

"""Whole responses for anonymous visitors, and conditional GET (ETag / 304) for them
(docs/caching.md, docs/performance.md).

A public page is the same for every anonymous visitor: it carries no CSRF token (the
header's language switch needs none: views/language.py), so the stored bytes are the
response, served as they are, with no token made and no cookie set. (Should a public page
ever render a token, it is rendered with a placeholder in its place, stored split there,
and each request joins the parts around its own token, as before the switch needed none.)
The key is a digest of the path, the page's own parameters, the language and the page's
*version*: what a page shows, as a version (a tournament's
``cache_version``, bumped by every write; see invalidation.py), kept in the shared cache and
never remembered by a process, so a write makes the old copy unreachable on every app
server.

A warm anonymous page costs no query: one read of the shared cache for its version
(generations.py keeps it never stale) and the page from this process's own copies
(``CACHES["local"]``, safe for the same reason: the key holds the version) or else from
the shared cache. The ETag is
the same digest (plus, for a page with a token, a digest of the visitor's CSRF cookie): a
browser asking again with ``If-None-Match`` gets a 304 without a body.

Compressed bytes are cached too: a page without a token as one whole gzip member; a page
with one as parts deflated each on its own with a full flush (no back-references across
the token), so its gzip response is the cached parts around the token deflated alone,
with the CRC computed over the joined text. That keeps a token out of any compression
context the page's reflected text shares (BREACH).

Signed-in users get no copy and no ETag: their header, counters, director's links and
messages are theirs. Requests with other query parameters than the page's own, or with
messages waiting, are rendered as usual.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from tournaments.caching import shared
from tournaments.caching.keys import TIMEOUT, digest, key

# Not a secret: it marks where each visitor's own token goes in the stored copy.
PLACEHOLDER = "csrf-token-placeholder-6d1f0c9a3b8e4f27"
_PLACEHOLDER = PLACEHOLDER.encode()
_MIN_GZIP = 200  # smaller bodies are not worth compressing (as GZipMiddleware)
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # deflate, no name, no time

# A version: plain data telling everything the page shows; None: no copy (not public).
Version = Callable[..., object]


@dataclass(frozen=True, slots=True)
class Stored:
    """A response as cached: the body split at the token, each part deflated; for a body
    without a token (every public page), ``gzipped`` is its whole gzip member."""

    parts: tuple[bytes, ...]
    deflated: tuple[bytes, ...]
    content_type: str
    gzipped: bytes | None

    @property
    def has_token(self) -> bool:
        return len(self.parts) > 1


def _deflate(data: bytes, *, last: bool) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


def _store(response: HttpResponse) -> Stored:
    parts = tuple(response.content.split(_PLACEHOLDER))
    deflated = tuple(_deflate(p, last=i == len(parts) - 1) for i, p in enumerate(parts))
    whole = None
    if len(parts) == 1:
        trailer = struct.pack("<II", zlib.crc32(parts[0]), len(parts[0]) & 0xFFFFFFFF)
        whole = _GZIP_HEADER + deflated[0] + trailer
    return Stored(parts, deflated, response["Content-Type"], whole)


def _gzip(stored: Stored, token: bytes, body: bytes) -> bytes:
    """The gzip member of ``body``: the stored deflated parts around the token, deflated
    alone (each part ends on a full flush, only the last is final)."""
    middle = _deflate(token, last=False)
    stream = middle.join(stored.deflated)
    trailer = struct.pack("<II", zlib.crc32(body), len(body) & 0xFFFFFFFF)
    return _GZIP_HEADER + stream + trailer


def _serve(request: HttpRequest, stored: Stored, *, zipped: bool) -> HttpResponse:
    if stored.gzipped is not None:  # no token: the stored bytes as they are
        body = stored.parts[0]
        if zipped and len(body) >= _MIN_GZIP:
            response = HttpResponse(stored.gzipped, content_type=stored.content_type)
            response["Content-Encoding"] = "gzip"
            return response
        return HttpResponse(body, content_type=stored.content_type)
    token = get_token(request).encode()
    body = token.join(stored.parts)
    response = HttpResponse(content_type=stored.content_type)
    if zipped and len(body) >= _MIN_GZIP:
        response.content = _gzip(stored, token, body)
        response["Content-Encoding"] = "gzip"
    else:
        response.content = body
    return response


def anonymous(request: HttpRequest) -> bool:
    """An anonymous visitor with no messages waiting: the page is the public copy. (An
    API client sending credentials is not anonymous, whatever the session says.)"""
    if request.user.is_authenticated or "HTTP_AUTHORIZATION" in request.META:
        return False
    if getattr(request, "_force_auth_user", None) is not None:  # DRF's test client
        return False
    return len(messages.get_messages(request)) == 0


def _plain_query(request: HttpRequest, params: dict[str, re.Pattern[str]]) -> bool:
    """Only the page's own parameters, each once and well formed (so that hostile query
    strings make no new entries; they get a page rendered as usual)."""
    for name in request.GET:
        pattern = params.get(name)
        values = request.GET.getlist(name)
        if pattern is None or len(values) != 1 or not pattern.fullmatch(values[0]):
            return False
    return True


def _etag(tag: str, request: HttpRequest, stored: Stored, *, zipped: bool) -> str:
    """Strong, so one per representation: the encoding in it, and for a page with a token
    the token's cookie."""
    gz = "-gz" if zipped else ""
    if not stored.has_token:
        return f'"{tag}{gz}"'
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return f'"{tag}-{digest(cookie)[:12]}{gz}"'


def _finish(response: HttpResponse, etag: str, *, html: bool) -> HttpResponse:
    response["ETag"] = etag
    # revalidate every time: the version can change any second on a tournament day
    response["Cache-Control"] = "private, no-cache" if html else "no-cache"
    vary = ("Cookie", "Accept-Language", "Accept-Encoding")
    patch_vary_headers(response, vary if html else (*vary, "Accept"))
    return response


def _own_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A response rendered for a copy but not kept: the visitor's token in it."""
    plain = not response.streaming and not response.get("Content-Encoding")
    if plain and _PLACEHOLDER in response.content:
        token = get_token(request).encode()
        response.content = response.content.replace(_PLACEHOLDER, token)
    return response


def _local() -> Any:
    """This process's copies (settings.CACHES["local"]), if configured."""
    return caches["local"] if "local" in settings.CACHES else None


def _get(page_key: str) -> Stored | None:
    """From this process's copies, else from the shared cache (then kept here too)."""
    local = _local()
    stored: Stored | None = local.get(page_key) if local is not None else None
    if stored is None:
        stored = shared.get(page_key)
        if stored is not None and local is not None:
            local.set(page_key, stored)
    return stored


def _set(page_key: str, stored: Stored) -> None:
    shared.set(page_key, stored, TIMEOUT)
    local = _local()
    if local is not None:
        local.set(page_key, stored)


def public_page(
    version: Version, *, params: dict[str, str] | None = None, html: bool = True
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Cache a page's whole response for anonymous visitors, under ``version(request,
    **kwargs)`` (None: not public, rendered as usual), and answer ``If-None-Match``.

    ``params``: the query parameters the page reads, each with the pattern its value must
    match for the copy to be used. ``html``: the page carries the header's CSRF token."""
    allowed = {name: re.compile(pattern) for name, pattern in (params or {}).items()}

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if (
                request.method not in ("GET", "HEAD")
                or not _plain_query(request, allowed)
                or (not html and "html" in request.META.get("HTTP_ACCEPT", ""))
                or not anonymous(request)
            ):
                return view(request, *args, **kwargs)
            seen = version(request, *args, **kwargs)
            if seen is None:
                return view(request, *args, **kwargs)
            query = tuple(sorted(request.GET.items()))
            place = (request.scheme, request.get_host(), request.path)  # the API's links
            tag = digest((view.__module__, view.__name__, place, query, get_language(), seen))
            page_key = key("page", tag, language=False)
            stored = _get(page_key)
            if stored is None:
                request.page_cache_placeholder = True  # type: ignore[attr-defined]
                try:
                    response = view(request, *args, **kwargs)
                finally:  # an error page rendered after this gets a real token
                    request.page_cache_placeholder = False  # type: ignore[attr-defined]
                if hasattr(response, "render") and not response.streaming:
                    response.render()  # DRF and template responses
                if (
                    response.status_code != 200
                    or response.streaming
                    or response.cookies
                    or response.get("Content-Encoding")
                ):
                    return _own_token(request, response)  # served once, not kept
                stored = _store(response)
                _set(page_key, stored)
            zipped = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
            etag = _etag(tag, request, stored, zipped=zipped)
            if etag in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
                return _finish(HttpResponseNotModified(), etag, html=html)
            return _finish(_serve(request, stored, zipped=zipped), etag, html=html)

        return wrapped

    return decorate


def placeholder_token(request: HttpRequest) -> dict[str, str]:
    """Context processor: while a public copy is rendered, the CSRF token is the
    placeholder (the builtin ``csrf`` processor runs first; this one wins)."""
    if getattr(request, "page_cache_placeholder", False):
        return {"csrf_token": PLACEHOLDER}
    return {}


__all__ = ["PLACEHOLDER", "anonymous", "placeholder_token", "public_page"]

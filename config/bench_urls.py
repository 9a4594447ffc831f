"""The site's URLs and the floor view of `make bench-web` (config/bench.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def floor(request: HttpRequest) -> HttpResponse:
    """The cheapest page the stack can serve: the benchmark's baseline."""
    return HttpResponse("ok")


def floor_query(request: HttpRequest) -> HttpResponse:
    """The floor plus one query (a tournament's version), the least a page that must
    never be stale can do: tells the database's share of a warm page's time."""
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=0).values_list("cache_version").first()
    return HttpResponse("ok")


def floor_cache(request: HttpRequest) -> HttpResponse:
    """The floor plus one read of the shared cache (two keys, as a warm page reads its
    version: tournaments/caching/generations.py)."""
    from django.core.cache import cache

    cache.get_many(["v1:gen:t:0", "v1:gen:cell:t:0"])
    return HttpResponse("ok")


urlpatterns = [
    path("_floor/", floor),
    path("_floor/query/", floor_query),
    path("_floor/cache/", floor_cache),
    *site_urlpatterns,
]

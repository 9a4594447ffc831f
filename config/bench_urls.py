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


urlpatterns = [
    path("_floor/", floor),
    path("_floor/query/", floor_query),
    *site_urlpatterns,
]

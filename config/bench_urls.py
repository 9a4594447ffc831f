"""The site's URLs and the floor view of `make bench-web` (config/bench.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def floor(request: HttpRequest) -> HttpResponse:
    """The cheapest page the stack can serve: the benchmark's baseline."""
    return HttpResponse("ok")


urlpatterns = [path("_floor/", floor), *site_urlpatterns]

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the product is; tournaments will be listed here."""
    return render(request, "tournaments/home.html")

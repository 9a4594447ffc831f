from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

from tournaments.views.accounts import SignInView
from tournaments.views.language import set_language

urlpatterns = [
    # browsers ask for /favicon.ico whatever the pages link: send them to the icon
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    # Django's sign-in, which also tells an unconfirmed account so (views/accounts.py)
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    # the header's switch: no CSRF token, so public pages carry none (views/language.py)
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
]

# the database unreachable before a view (in a middleware): 503 rather than 500
handler500 = "tournaments.views.unavailable.server_error"

"""Accounts without a command line: the sign-up, its confirmation link and sending it
again (services/accounts.py), and the staff's page of who may create tournaments."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied as Forbidden
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.api.throttles import PageThrottle
from tournaments.forms import add_service_error
from tournaments.selectors.access import is_staff
from tournaments.selectors.accounts import accounts_matching, may_create, search_text
from tournaments.services.accounts import (
    CONFIRM_DAYS,
    account_confirm,
    account_confirmation_resend,
    account_set_may_create_tournaments,
    account_signup,
    account_to_confirm,
    account_unconfirmed_sign_in,
    unconfirmed_sign_in_error,
)
from tournaments.services.errors import ApplicationError

PER_PAGE = 25
BACKEND = "django.contrib.auth.backends.ModelBackend"


class SignupForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=150,
        help_text=gettext_lazy("Letters, digits and @ . + - _ only; others see it."),
    )
    email = forms.EmailField(label=gettext_lazy("Email address"), max_length=254)
    password = forms.CharField(
        label=gettext_lazy("Password"), widget=forms.PasswordInput, strip=False, max_length=4096
    )


class SignInForm(AuthenticationForm):
    """Django's sign-in form, which also tells an account that is not confirmed yet
    (services/accounts.py::account_unconfirmed_sign_in) what to do, instead of "wrong
    username or password". ``unconfirmed`` is set then: the page links to a new link."""

    unconfirmed = False

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except forms.ValidationError:
            locked = getattr(self.request, "axes_locked_out", False)
            if not locked and account_unconfirmed_sign_in(
                username=self.cleaned_data.get("username"),
                password=self.cleaned_data.get("password"),
            ):
                self.unconfirmed = True
                error = unconfirmed_sign_in_error()
                raise forms.ValidationError(error.message, code=error.code) from None
            raise


class SignInView(LoginView):
    form_class = SignInForm


class ResendForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Email address"), max_length=254)


def _throttled(request: HttpRequest, email: str) -> bool:
    """Too many mails asked for from this client, or to this address, lately (a form
    refused sends nothing and is not counted)."""
    throttles = [PageThrottle("signup"), PageThrottle("signup_mail", email.casefold())]
    return not all(t.allow_request(request, None) for t in throttles)


def _too_many(request: HttpRequest, template: str, form: forms.Form) -> HttpResponse:
    form.add_error(None, _("Too many requests: try again in an hour."))
    return render(request, template, {"form": form, "days": CONFIRM_DAYS}, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    """The sign-up page: an inactive account and its confirmation mail, then the page
    that says to look in the mail (the same whether the address was known or not)."""
    if request.user.is_authenticated:
        return redirect("tournaments:home")
    form = SignupForm(request.POST if request.method == "POST" else None)
    template = "registration/signup.html"
    if request.method == "POST":
        if form.is_valid() and _throttled(request, form.cleaned_data["email"]):
            return _too_many(request, template, form)
        if form.is_valid():
            data = form.cleaned_data
            try:
                account_signup(
                    username=data["username"],
                    email=data["email"],
                    password=data["password"],
                    link=request.build_absolute_uri,
                )
            except ApplicationError as exc:
                add_service_error(form, exc)
            else:
                return redirect("tournaments:signup_sent")
    status = 400 if form.is_bound else 200
    return render(request, template, {"form": form, "days": CONFIRM_DAYS}, status=status)


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/signup_sent.html", {"days": CONFIRM_DAYS})


def signup_again(request: HttpRequest) -> HttpResponse:
    """Send the confirmation link again (it expired, or the mail was lost)."""
    form = ResendForm(request.POST if request.method == "POST" else None)
    template = "registration/signup_again.html"
    if request.method == "POST":
        if form.is_valid() and _throttled(request, form.cleaned_data["email"]):
            return _too_many(request, template, form)
        if form.is_valid():
            try:
                account_confirmation_resend(
                    email=form.cleaned_data["email"], link=request.build_absolute_uri
                )
            except ApplicationError as exc:
                add_service_error(form, exc)
            else:
                return redirect("tournaments:signup_sent")
    status = 400 if form.is_bound else 200
    return render(request, template, {"form": form}, status=status)


def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the confirmation mail: a button confirms (a mail scanner that opens
    links signs nobody in), which activates the account and signs its owner in."""
    template = "registration/signup_confirm.html"
    try:
        if request.method == "POST":
            user = account_confirm(token=token)
        else:
            user = account_to_confirm(token=token)
    except ApplicationError as exc:
        return render(request, template, {"error": exc.message, "code": exc.code}, status=400)
    if request.method == "POST":
        login(request, user, backend=BACKEND)
        messages.success(
            request, _("Your account %(name)s is confirmed: welcome.") % {"name": user.username}
        )
        return redirect("tournaments:home")
    return render(request, template, {"account": user})


@login_required
def account_list(request: HttpRequest) -> HttpResponse:
    """Staff: the accounts, found by name or address, and who may create tournaments."""
    if not is_staff(request.user):
        raise Forbidden
    query = search_text(request.GET.get("q", ""))
    page = Paginator(accounts_matching(query=query), PER_PAGE).get_page(request.GET.get("page"))
    rows = [(user, may_create(user)) for user in page]
    context = {"q": query, "page": page, "rows": rows}
    return render(request, "tournaments/accounts.html", context)


@login_required
@require_POST
def account_access(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Staff: give (``grant``) or take (``revoke``) the right to create tournaments."""
    if not is_staff(request.user):
        raise Forbidden
    if action not in ("grant", "revoke"):
        return HttpResponse(_("Unknown action."), status=400, content_type="text/plain")
    user = get_object_or_404(User, pk=pk)
    assert isinstance(request.user, User)
    try:
        changed = account_set_may_create_tournaments(
            user=user, allowed=action == "grant", by=request.user
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        name = {"name": user.username}
        if not changed:
            messages.info(request, _("Nothing changed for %(name)s.") % name)
        elif action == "grant":
            messages.success(request, _("%(name)s may create tournaments now.") % name)
        else:
            messages.success(request, _("%(name)s may no longer create tournaments.") % name)
    back = {key: search_text(request.POST.get(key, ""))[:120] for key in ("q", "page")}
    kept = urlencode({key: value for key, value in back.items() if value})
    return redirect(reverse("tournaments:accounts") + ("?" + kept if kept else ""))

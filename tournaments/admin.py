"""The Django admin: clubs, players and tournaments are edited here, series paired by hand
and players registered, all through the services (STYLE 4): a form asks the service's
check, so that a refusal is shown next to its field, and saving calls the service. What
has no service here (entries and rounds once made, a series' players once paired,
results) is shown read-only; results change only through the services (entry,
corrections), which keep the series, standings and ratings in step. Actions call the
services."""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tournaments.forms import add_service_error
from tournaments.models import (
    BotGame,
    Club,
    Correction,
    Deletion,
    Entry,
    EntryRequest,
    Game,
    GameAnalysis,
    Job,
    Player,
    PlayerMerge,
    ProhibitedPair,
    RatingChange,
    Round,
    Series,
    SeriesReport,
    Submission,
    Tournament,
)
from tournaments.models.deletion import REASON_MAX
from tournaments.selectors.access import may_delete_game
from tournaments.services.deletion import (
    deletion_reason_check,
    game_delete,
    game_delete_plan,
    tournament_delete,
    tournament_delete_summary,
)
from tournaments.services.directing import tournament_update, tournament_update_check
from tournaments.services.errors import ApplicationError
from tournaments.services.merging import player_merge_undo
from tournaments.services.people import (
    club_check,
    club_create,
    club_delete,
    club_update,
    player_check,
    player_create,
    player_delete,
    player_update,
)
from tournaments.services.ratings import ratings_after_series, ratings_recompute
from tournaments.services.series import series_recompute
from tournaments.services.setup import (
    entry_check,
    entry_register,
    round_create,
    round_number,
    series_check,
    series_create,
    tournament_check,
    tournament_create,
    tournament_settings_check,
)

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin, TabularInline
else:  # typed as generics by django-stubs, plain classes at run time

    class ModelAdmin(admin.ModelAdmin):
        def __class_getitem__(cls, _: object) -> type:
            return cls

    class TabularInline(admin.TabularInline):
        def __class_getitem__(cls, _: object) -> type:
            return cls


def _changed(model: type[_M], obj: _M | None, data: dict[str, Any]) -> _M:
    """An unsaved copy of ``obj`` (or a new object) with ``data``, for a service's check."""
    copied = copy.copy(obj) if obj is not None else model()
    for name, value in data.items():
        setattr(copied, name, value)
    return copied


_M = TypeVar("_M", bound=Model)


class ReadOnlyAdmin(ModelAdmin[_M]):
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ServiceAdmin(ModelAdmin[_M]):
    """Written only through the services: ``service_check`` runs in the form's clean (a
    ApplicationError becomes a form error), ``service_save`` writes; ``service_delete``
    deletes. Without ``service_save`` for changes an object is shown read-only."""

    changeable = True

    def service_check(self, obj: _M | None, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def service_save(self, obj: _M | None, data: dict[str, Any]) -> _M:
        raise NotImplementedError

    def service_delete(self, obj: _M) -> None:
        raise NotImplementedError

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not self.changeable:
            return False  # shown read-only; the changelist's actions stay
        return super().has_change_permission(request, obj)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form_class = super().get_form(request, obj, change=change, **kwargs)
        admin_ = self

        class ServiceForm(form_class):  # type: ignore[valid-type,misc]
            def clean(self) -> dict[str, Any]:
                data = super().clean() or {}
                if not self._errors:
                    try:
                        admin_.service_check(obj, admin_.service_data(self, obj))
                    except ApplicationError as exc:
                        add_service_error(self, exc)
                return data

        return ServiceForm

    def service_data(self, form: Any, obj: Any) -> dict[str, Any]:
        """The form's values for the service: all on adding, the changed ones on
        changing; many-to-many fields are left to the admin (save_related)."""
        names = [n for n in form.fields if n in form.cleaned_data]
        if obj is not None:
            names = [n for n in names if n in form.changed_data]
        m2m = {f.name for f in self.model._meta.many_to_many}
        return {n: form.cleaned_data[n] for n in names if n not in m2m}

    def save_model(self, request: HttpRequest, obj: _M, form: Any, change: bool) -> None:
        original = type(obj)._default_manager.get(pk=obj.pk) if change else None
        saved = self.service_save(original, self.service_data(form, original))
        obj.__dict__.update(saved.__dict__)  # the admin goes on with the saved row

    def delete_model(self, request: HttpRequest, obj: _M) -> None:
        self.service_delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[_M]) -> None:
        with transaction.atomic():
            for obj in queryset:
                self.service_delete(obj)


def _recompute_series(series: QuerySet[Series]) -> int:
    """Each series from its games; the ratings follow a series whose result changed (a
    no-op for the others)."""
    with transaction.atomic():
        count = 0
        for s in series.select_related("tournament"):
            series_recompute(series=s)
            ratings_after_series(series=s)
            count += 1
    return count


def _recompute_ratings(modeladmin: ModelAdmin[Any], request: HttpRequest) -> None:
    rated = ratings_recompute()
    modeladmin.message_user(
        request,
        _("Ratings recomputed from %(n)d rated series.") % {"n": rated},
        messages.SUCCESS,
    )


@admin.register(Club)
class ClubAdmin(ServiceAdmin[Club]):
    list_display = ("name", "city", "country")
    search_fields = ("name", "city")
    list_filter = ("country",)

    def service_check(self, obj: Club | None, data: dict[str, Any]) -> None:
        club_check(_changed(Club, obj, data))

    def service_save(self, obj: Club | None, data: dict[str, Any]) -> Club:
        return club_update(club=obj, **data) if obj is not None else club_create(**data)

    def service_delete(self, obj: Club) -> None:
        club_delete(club=obj)


@admin.register(Player)
class PlayerAdmin(ServiceAdmin[Player]):
    list_display = ("name", "club", "ratings_shown", "active")
    list_select_related = ("club",)
    search_fields = ("name", "club__name")
    list_filter = ("club", "active")
    readonly_fields = ("ratings_shown",)
    autocomplete_fields = ("club",)
    actions = ("recompute_ratings",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).prefetch_related("ratings")

    # shown, never set here: a start is given where a player is made for a tournament (a
    # registration, a CSV, an archive) or through the API, and the rated series move them
    @admin.display(description=_("ratings"))
    def ratings_shown(self, obj: Player) -> str:
        return ", ".join(f"{r.get_variant_display()} {r.rating:.1f}" for r in obj.ratings.all())

    @admin.action(description=_("Recompute ratings (all players)"), permissions=("change",))
    def recompute_ratings(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        _recompute_ratings(self, request)

    def service_check(self, obj: Player | None, data: dict[str, Any]) -> None:
        player_check(_changed(Player, obj, data))

    def service_save(self, obj: Player | None, data: dict[str, Any]) -> Player:
        if obj is not None:
            return player_update(player=obj, **data)
        user = data.pop("user", None)
        player = player_create(**data)
        return player_update(player=player, user=user) if user is not None else player

    def service_delete(self, obj: Player) -> None:
        player_delete(player=obj)


class _ShownInline(TabularInline[_M, Tournament]):
    """Shown, never changed here: the services register players and make rounds."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(_ShownInline[Entry]):
    model = Entry


class RoundInline(_ShownInline[Round]):
    model = Round


class TournamentAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """The model's fields, and the confirmation a new series length needs once series
    are paired (services/directing.py NEEDS_CONFIRMATION): saving without it shows what
    the change alters, as the tournament's own settings page does."""

    confirm_change = forms.BooleanField(
        label=_("Confirm the change"),
        required=False,
        help_text=_(
            "Needed only for a change that alters series already paired: save once, read "
            "what it alters, then tick this and save again."
        ),
    )

    class Meta:
        model = Tournament
        fields = "__all__"


@admin.register(Tournament)
class TournamentAdmin(ServiceAdmin[Tournament]):
    form = TournamentAdminForm
    list_display = ("name", "start_date", "end_date", "variant", "format", "published")
    list_filter = ("variant", "format", "published", "start_date")
    search_fields = ("name", "venue")
    date_hierarchy = "start_date"
    filter_horizontal = ("directors",)
    inlines = (EntryInline, RoundInline)
    actions = ("recompute_series", "recompute_ratings")

    @admin.action(
        description=_("Recompute series of the selected tournaments"), permissions=("change",)
    )
    def recompute_series(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        count = _recompute_series(Series.objects.filter(tournament__in=queryset))
        self.message_user(request, _("%(n)d series recomputed.") % {"n": count}, messages.SUCCESS)

    @admin.action(description=_("Recompute ratings (all players)"), permissions=("change",))
    def recompute_ratings(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        _recompute_ratings(self, request)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = list(super().get_fields(request, obj))
        return fields if obj is not None else [f for f in fields if f != "confirm_change"]

    def service_check(self, obj: Tournament | None, data: dict[str, Any]) -> None:
        confirmed = bool(data.pop("confirm_change", False))
        if obj is None:
            tournament_settings_check(data)
            tournament_check(Tournament(**data))
        else:
            current = Tournament.objects.get(pk=obj.pk)
            tournament_update_check(
                tournament=current, paired=current.series.exists(), confirmed=confirmed, **data
            )

    def service_save(self, obj: Tournament | None, data: dict[str, Any]) -> Tournament:
        confirmed = bool(data.pop("confirm_change", False))
        if obj is not None:
            return tournament_update(tournament=obj, confirmed=confirmed, **data)
        return tournament_create(name=data.pop("name"), start_date=data.pop("start_date"), **data)

    # Deleting: one tournament at a time, with a reason (the confirmation page asks for
    # it: templates/admin/tournaments/tournament/delete_confirmation.html), through the
    # service, which keeps the audit row and recomputes the ratings. The rows that go with
    # it are the service's business: the read-only admins of rounds, series, games and
    # rating changes protect nothing here.
    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        shown: list[Any] = []
        counts: dict[str, int] = {}
        for tournament in objs:
            summary = tournament_delete_summary(tournament=tournament)
            parts = {
                Round._meta.verbose_name_plural: summary["rounds"],
                Series._meta.verbose_name_plural: summary["series"],
                Game._meta.verbose_name_plural: summary["games"],
                Entry._meta.verbose_name_plural: summary["entries"],
            }
            names = ", ".join(p["name"] for p in summary["players"]) or "-"
            shown.append(str(tournament))
            shown.append([f"{name}: {n}" for name, n in parts.items()] + [
                _("Rated series: %(n)d; the ratings are recomputed, these players' change: "
                  "%(names)s") % {"n": summary["rated_series"], "names": names}
            ])  # fmt: skip
            counts[str(Tournament._meta.verbose_name_plural)] = len(shown) // 2
            for name, n in parts.items():
                counts[str(name)] = counts.get(str(name), 0) + n
        return shown, counts, set(), []

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "POST" and request.POST.get("post"):
            try:
                deletion_reason_check(request.POST.get("reason"))
            except ApplicationError as exc:  # asked again, nothing deleted
                self.message_user(request, exc.message, messages.ERROR)
                return HttpResponseRedirect(request.get_full_path())
        context = {**(extra_context or {}), "reason_max": REASON_MAX}
        return super().delete_view(request, object_id, context)

    def delete_model(self, request: HttpRequest, obj: Tournament) -> None:
        tournament_delete(tournament=obj, by=request.user, reason=request.POST.get("reason", ""))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        with transaction.atomic():
            for obj in queryset:
                self.delete_model(request, obj)


@admin.register(ProhibitedPair)
class ProhibitedPairAdmin(ModelAdmin[ProhibitedPair]):
    list_display = ("tournament", "player_a", "player_b", "reason")
    list_filter = ("tournament",)
    search_fields = ("player_a__name", "player_b__name", "reason")
    autocomplete_fields = ("player_a", "player_b")


@admin.register(Entry)
class EntryAdmin(ServiceAdmin[Entry]):
    """Players are registered here or on the tournament's players page (entry_register);
    seeding and withdrawing are on that page."""

    list_display = ("player", "tournament", "seed", "withdrawn")
    list_select_related = ("player", "tournament")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("player__name", "tournament__name")
    autocomplete_fields = ("player",)
    fields = ("tournament", "player", "seed")
    changeable = False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def service_check(self, obj: Entry | None, data: dict[str, Any]) -> None:
        entry_check(**data)

    def service_save(self, obj: Entry | None, data: dict[str, Any]) -> Entry:
        return entry_register(**data)


@admin.register(Round)
class RoundAdmin(ServiceAdmin[Round]):
    """Rounds are made by pairing them, or here for pairings by hand (round_create)."""

    list_display = ("tournament", "number", "name")
    list_select_related = ("tournament",)
    list_filter = ("tournament",)
    search_fields = ("tournament__name", "name")
    changeable = False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def service_check(self, obj: Round | None, data: dict[str, Any]) -> None:
        round_number(tournament=data["tournament"], number=data.get("number"))

    def service_save(self, obj: Round | None, data: dict[str, Any]) -> Round:
        return round_create(**data)


class GameInline(TabularInline[Game, Series]):
    """The series' games, read-only: results change only through the services."""

    model = Game
    extra = 0
    fields = ("number", "white", "black", "winner", "kind", "ended", "cube", "verified")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("white", "black", "winner")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Series)
class SeriesAdmin(ServiceAdmin[Series]):
    """Pairings by hand are added here (series_create); a series is then shown read-only:
    its result follows from its games."""

    list_display = (
        "tournament", "round", "table", "player1", "player2", "status", "score1", "score2",
        "winner",
    )  # fmt: skip
    list_select_related = ("tournament", "round__tournament", "player1", "player2", "winner")
    list_filter = ("tournament", "status", "round__number")
    search_fields = ("player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    fields = ("tournament", "round", "table", "slot", "player1", "player2", "length")
    # The result follows from the games (series_recompute), never typed in.
    readonly_fields = (
        "status", "score1", "score2", "winner", "finished_at", "version", "pairing_reason",
    )  # fmt: skip
    changeable = False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return self.fields
        return (*self.fields, "status", "score1", "score2", "winner", "finished_at",
                "version", "pairing_reason")  # fmt: skip

    def service_check(self, obj: Series | None, data: dict[str, Any]) -> None:
        series_check(
            tournament=data["tournament"], player1=data.get("player1"),
            player2=data.get("player2"), round=data.get("round"),
        )  # fmt: skip

    def service_save(self, obj: Series | None, data: dict[str, Any]) -> Series:
        return series_create(**data)

    @admin.display(description=_("why paired"))
    def pairing_reason(self, obj: Series) -> str:
        """The pairing's explanation, for the director (Swiss score groups, floats)."""
        return str(obj.pairing.get("reason", "")) if obj.pairing else ""

    inlines = (GameInline,)
    actions = ("recompute_series", "recompute_ratings")

    @admin.action(description=_("Recompute series"), permissions=("change",))
    def recompute_series(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        count = _recompute_series(queryset)
        self.message_user(request, _("%(n)d series recomputed.") % {"n": count}, messages.SUCCESS)

    @admin.action(description=_("Recompute ratings (all players)"), permissions=("change",))
    def recompute_ratings(self, request: HttpRequest, queryset: QuerySet[Series]) -> None:
        _recompute_ratings(self, request)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin[Game]):
    list_display = (
        "series", "number", "white", "black", "winner", "kind", "ended", "verified",
    )  # fmt: skip
    list_select_related = ("series__player1", "series__player2", "white", "black", "winner")
    list_filter = ("kind", "ended", "verified", "series__tournament")
    search_fields = ("white__name", "black__name")
    fields = (
        "series", "number", "white", "black", "winner", "kind", "ended", "cube", "verified",
        "verification_text", "record_text", "entered_by", "entered_at", "version",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description=_("verification"))
    def verification_text(self, obj: Game) -> str:
        return obj.verification

    @admin.display(description=_("record"))
    def record_text(self, obj: Game) -> SafeString | str:
        if not obj.record:
            return "-"
        # styled by static/css/admin.css: the Content-Security-Policy allows no inline style
        return format_html('<pre class="record-text">{}</pre>', obj.record)

    # Deleting: one game at a time, with a reason (the confirmation page asks for it and
    # for the confirmation after warnings: templates/admin/tournaments/game/
    # delete_confirmation.html), through the service, which decides what may go, keeps
    # the audit row and lets the series and the ratings follow.
    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is not None and may_delete_game(request.user, obj.series.tournament)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[Any]]:
        shown: list[Any] = []
        for game in objs:
            plan = game_delete_plan(game=game)
            shown.append(plan.label)
            shown.append([
                _("Corrections: %(n)d") % {"n": plan.corrections},
                _("Submitted results: %(n)d") % {"n": plan.submissions},
                _("The series' score: %(before)s before, %(after)s after")
                % {"before": plan.score_before, "after": plan.score_after},
            ])  # fmt: skip
        return shown, {str(Game._meta.verbose_name_plural): len(shown) // 2}, set(), []

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        if game is None:
            return super().delete_view(request, object_id, extra_context)
        if not self.has_delete_permission(request, game):
            raise DjangoPermissionDenied
        if request.method == "POST" and request.POST.get("post"):
            try:
                deletion = game_delete(
                    game=game, by=request.user, reason=request.POST.get("reason", ""),
                    confirmed=bool(request.POST.get("confirmed")),
                )  # fmt: skip
            except ApplicationError as exc:  # asked again, nothing deleted
                self.message_user(request, exc.message, messages.ERROR)
                return HttpResponseRedirect(request.get_full_path())
            self.message_user(
                request, _("%(game)s is deleted.") % {"game": deletion.label}, messages.SUCCESS
            )
            return HttpResponseRedirect(reverse("admin:tournaments_game_changelist"))
        context = {
            **(extra_context or {}),
            "plan": game_delete_plan(game=game),
            "reason_max": REASON_MAX,
        }
        return super().delete_view(request, object_id, context)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin[Correction]):
    list_display = ("game", "by", "at", "reason")
    list_select_related = ("game__series__player1", "game__series__player2", "by")
    list_filter = ("game__series__tournament",)
    search_fields = ("reason", "game__white__name", "game__black__name")
    date_hierarchy = "at"


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[RatingChange]):
    list_display = ("player", "variant", "series", "before", "after", "experience_before", "at")
    list_select_related = ("player", "series__player1", "series__player2")
    list_filter = ("variant", "series__tournament")
    search_fields = ("player__name",)
    date_hierarchy = "at"


@admin.register(Deletion)
class DeletionAdmin(ReadOnlyAdmin[Deletion]):
    """The audit of deletions: who deleted which tournament or game, when and why."""

    list_display = ("at", "kind", "label", "object_id", "by_name", "reason")
    list_filter = ("kind",)
    search_fields = ("label", "reason", "by_name")
    date_hierarchy = "at"
    fields = ("kind", "label", "object_id", "at", "by", "by_name", "reason", "summary_text")
    readonly_fields = fields

    @admin.display(description=_("summary"))
    def summary_text(self, obj: Deletion) -> SafeString:
        text = json.dumps(obj.summary, ensure_ascii=False, indent=1)
        return format_html('<pre class="record-text">{}</pre>', text)


@admin.register(BotGame)
class BotGameAdmin(ReadOnlyAdmin[BotGame]):
    """Games against the bot (docs/play.md), to inspect: the services write them. The
    seed is not shown: it would tell the dice of a game still being played."""

    list_display = ("id", "user", "level", "colour", "status", "winner", "kind", "ended",
                    "created")  # fmt: skip
    list_select_related = ("user",)
    list_filter = ("status", "level", "ended")
    search_fields = ("user__username",)
    date_hierarchy = "created"
    fields = ("user", "level", "colour", "status", "winner", "kind", "ended", "version",
              "created", "finished", "error_rates", "record_text")  # fmt: skip
    readonly_fields = fields

    @admin.display(description=_("record"))
    def record_text(self, obj: BotGame) -> SafeString:
        return format_html('<pre class="record-text">{}</pre>', obj.record)

    @admin.display(description=_("error rate (mp a move)"))
    def error_rates(self, obj: BotGame) -> str:
        if not obj.analysis:
            return str(_("The game has not been analysed."))
        return _("white %(white)s, black %(black)s") % {
            "white": obj.analysis.get("white_error_rate"),
            "black": obj.analysis.get("black_error_rate"),
        }


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyAdmin[Submission]):
    """Results submitted by players: confirmed or rejected on the confirmations page
    (services/submissions.py), shown here."""

    list_display = ("series", "number", "submitted_by", "submitted_at", "status", "decided_by")
    list_select_related = ("series__player1", "series__player2", "submitted_by", "decided_by")
    list_filter = ("status", "series__tournament")
    search_fields = ("series__player1__name", "series__player2__name", "note")
    date_hierarchy = "submitted_at"


@admin.register(SeriesReport)
class SeriesReportAdmin(ReadOnlyAdmin[SeriesReport]):
    """A player's report of several games at once, decided once on its page
    (services/submissions.py report_confirm, report_reject), shown here."""

    list_display = ("series", "submitted_by", "submitted_at", "status", "decided_by")
    list_select_related = ("series__player1", "series__player2", "submitted_by", "decided_by")
    list_filter = ("status", "series__tournament")
    search_fields = ("series__player1__name", "series__player2__name", "note")
    date_hierarchy = "submitted_at"


@admin.register(Job)
class JobAdmin(ReadOnlyAdmin[Job]):
    """Background jobs (docs/jobs.md): started and followed on the jobs pages."""

    list_display = ("id", "kind", "status", "tournament", "created_by", "created_at")
    list_select_related = ("tournament", "created_by")
    list_filter = ("kind", "status")
    search_fields = ("tournament__name", "error")
    date_hierarchy = "created_at"
    exclude = ("data",)  # an uploaded file's whole text


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin[GameAnalysis]):
    list_display = (
        "game", "source", "white_error_rate", "black_error_rate", "analysed_at",
    )  # fmt: skip
    list_select_related = ("game__series__player1", "game__series__player2")
    list_filter = ("source",)
    search_fields = ("game__white__name", "game__black__name")


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ReadOnlyAdmin[PlayerMerge]):
    """The audit of merged players (who, when, what moved, why); a merge is made on the
    player page (/players/<id>/merge/) and undone here or there until the next rating
    change (services/merging.py)."""

    list_display = ("at", "absorbed_name", "kept", "by", "reason", "undone_at")
    list_select_related = ("kept", "by")
    search_fields = ("absorbed_name", "kept__name", "reason")
    date_hierarchy = "at"
    fields = ("at", "by", "kept", "absorbed_id", "absorbed_name", "reason", "moved_text",
              "variants", "undone_at", "undone_by")  # fmt: skip
    readonly_fields = fields
    actions = ("undo_merges",)

    @admin.display(description=_("rows moved"))
    def moved_text(self, obj: PlayerMerge) -> SafeString:
        text = json.dumps(obj.moved, ensure_ascii=False, indent=1)
        return format_html('<pre class="record-text">{}</pre>', text)

    @admin.action(description=_("Undo the selected merges"))
    def undo_merges(self, request: HttpRequest, queryset: QuerySet[PlayerMerge]) -> None:
        for merge in queryset.order_by("-at", "-id"):  # the newest first
            try:
                player_merge_undo(merge=merge, by=request.user)
            except ApplicationError as exc:
                self.message_user(request, f"{merge}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, _("Undone: %(merge)s") % {"merge": merge})


@admin.register(EntryRequest)
class EntryRequestAdmin(ReadOnlyAdmin[EntryRequest]):
    """Players' requests to play; directors decide them on the tournament's players page."""

    list_display = ("at", "tournament", "player", "status", "decided_by", "decided_at")
    list_select_related = ("tournament", "player", "decided_by")
    list_filter = ("status",)
    fields = ("tournament", "player", "status", "at", "decided_by", "decided_at", "note")
    readonly_fields = fields

"""The Django admin: clubs, players and tournaments are edited here; results are shown
read-only, because they change only through the services (entry, corrections), which
keep the series, standings and ratings in step. Actions call the services."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Club,
    Correction,
    Entry,
    Game,
    Player,
    ProhibitedPair,
    RatingChange,
    Round,
    Series,
    Tournament,
)
from tournaments.services.ratings import ratings_after_series, ratings_recompute
from tournaments.services.series import series_recompute

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin, TabularInline
else:  # typed as generics by django-stubs, plain classes at run time

    class ModelAdmin(admin.ModelAdmin):
        def __class_getitem__(cls, _: object) -> type:
            return cls

    class TabularInline(admin.TabularInline):
        def __class_getitem__(cls, _: object) -> type:
            return cls


MONOSPACE = "font-family: monospace; white-space: pre-wrap; margin: 0"
_M = TypeVar("_M", bound=Model)


class ReadOnlyAdmin(ModelAdmin[_M]):
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
class ClubAdmin(ModelAdmin[Club]):
    list_display = ("name", "city", "country")
    search_fields = ("name", "city")
    list_filter = ("country",)


@admin.register(Player)
class PlayerAdmin(ModelAdmin[Player]):
    list_display = ("name", "club", "rating_shown", "experience", "active")
    list_select_related = ("club",)
    search_fields = ("name", "club__name")
    list_filter = ("club", "active")
    readonly_fields = ("rating", "experience")
    autocomplete_fields = ("club",)
    actions = ("recompute_ratings",)

    @admin.display(description=_("rating"), ordering="rating")
    def rating_shown(self, obj: Player) -> str:
        return f"{obj.rating:.1f}"

    @admin.action(description=_("Recompute ratings (all players)"), permissions=("change",))
    def recompute_ratings(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        _recompute_ratings(self, request)


class EntryInline(TabularInline[Entry, Tournament]):
    model = Entry
    extra = 0
    autocomplete_fields = ("player",)


class RoundInline(TabularInline[Round, Tournament]):
    model = Round
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ModelAdmin[Tournament]):
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


@admin.register(ProhibitedPair)
class ProhibitedPairAdmin(ModelAdmin[ProhibitedPair]):
    list_display = ("tournament", "player_a", "player_b", "reason")
    list_filter = ("tournament",)
    search_fields = ("player_a__name", "player_b__name", "reason")
    autocomplete_fields = ("player_a", "player_b")


@admin.register(Entry)
class EntryAdmin(ModelAdmin[Entry]):
    list_display = ("player", "tournament", "seed", "withdrawn")
    list_select_related = ("player", "tournament")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("player__name", "tournament__name")
    autocomplete_fields = ("player",)


@admin.register(Round)
class RoundAdmin(ModelAdmin[Round]):
    list_display = ("tournament", "number", "name")
    list_select_related = ("tournament",)
    list_filter = ("tournament",)
    search_fields = ("tournament__name", "name")


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
class SeriesAdmin(ModelAdmin[Series]):
    list_display = (
        "tournament", "round", "table", "player1", "player2", "status", "score1", "score2",
        "winner",
    )  # fmt: skip
    list_select_related = ("tournament", "round__tournament", "player1", "player2", "winner")
    list_filter = ("tournament", "status", "round__number")
    search_fields = ("player1__name", "player2__name")
    autocomplete_fields = ("player1", "player2")
    # The result follows from the games (series_recompute), never typed in.
    readonly_fields = (
        "status", "score1", "score2", "winner", "finished_at", "version", "pairing_reason",
    )  # fmt: skip

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
        "verification", "record_text", "entered_by", "entered_at", "version",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description=_("record"))
    def record_text(self, obj: Game) -> SafeString | str:
        if not obj.record:
            return "-"
        return format_html('<pre style="{}">{}</pre>', MONOSPACE, obj.record)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin[Correction]):
    list_display = ("game", "by", "at", "reason")
    list_select_related = ("game__series__player1", "game__series__player2", "by")
    list_filter = ("game__series__tournament",)
    search_fields = ("reason", "game__white__name", "game__black__name")
    date_hierarchy = "at"


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[RatingChange]):
    list_display = ("player", "series", "before", "after", "experience_before", "at")
    list_select_related = ("player", "series__player1", "series__player2")
    list_filter = ("series__tournament",)
    search_fields = ("player__name",)
    date_hierarchy = "at"

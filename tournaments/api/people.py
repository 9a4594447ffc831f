# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""The API of a director's people (docs/api.md), the same actions as the pages
(tournaments/views/people.py) under the same rules: entries (register, remove before
pairing, withdraw, reinstate), co-directors, pairs kept apart, invitations; and the
accent-insensitive player search. Everything goes through tournaments/services."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tournaments.api.access import require_director, visible_tournaments
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.serializers import ConflictOutput, ErrorOutput, PlayerSerializer
from tournaments.models import Entry, Player, ProhibitedPair, Tournament
from tournaments.selectors.people import players_matching
from tournaments.services.errors import ApplicationError
from tournaments.services.invitations import (
    invitation_claim,
    invitation_send,
    invitation_token,
    invitation_withdraw,
)
from tournaments.services.pairings import entry_withdraw
from tournaments.services.roster import (
    entry_register_new,
    entry_reinstate,
    entry_remove,
    prohibited_pair_add,
    prohibited_pair_remove,
    tournament_director_add,
    tournament_director_remove,
)
from tournaments.services.setup import entry_register

ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="refused: the input or a rule"),
    403: OpenApiResponse(ErrorOutput, description="not allowed"),
    404: OpenApiResponse(ErrorOutput, description="not found (or not visible)"),
}
CONFLICT = {409: OpenApiResponse(ConflictOutput, description="similar names exist (current)")}


class EntryOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    claimed = serializers.SerializerMethodField()

    def get_claimed(self, entry: Entry) -> bool:
        return entry.player.user_id is not None


class EntryInput(serializers.Serializer):
    player = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**31 - 1
    )
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=120,
        help_text="a new player's name (instead of player)",
    )
    club = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=120,
        help_text="the new player's club by name: an existing one (case ignored) or a new one",
    )
    gender = serializers.ChoiceField(
        choices=["", "f", "m"],
        required=False,
        help_text="the new player's grammatical gender (f, m, empty: not known); "
        "omitted: feminine for a Czech surname in -á, else not known",
    )
    rating = serializers.FloatField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=10_000,
        help_text="the new player's starting rating (empty: 1500)",
    )
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=32767)
    confirm_new = serializers.BooleanField(
        default=False, help_text="create the new player even though similar names exist"
    )


class DirectorIO(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class PairOutput(serializers.ModelSerializer):
    class Meta:
        model = ProhibitedPair
        fields = ["id", "player_a", "player_b", "reason"]


class PairInput(serializers.Serializer):
    player_a = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    player_b = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class InvitationInput(serializers.Serializer):
    email = serializers.EmailField(required=False, help_text="also mail the link here")


class InvitationOutput(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.CharField()
    sent_to = serializers.CharField(allow_null=True)


class ClaimInput(serializers.Serializer):
    token = serializers.CharField(max_length=500)


def _valid(serializer_class: Any, request: Any) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class _TournamentView(ServiceErrorsMixin, GenericAPIView):
    pagination_class = None
    filter_backends: list[Any] = []

    def tournament(self, *, direct: bool = True) -> Tournament:
        tournament = get_object_or_404(visible_tournaments(self.request.user), pk=self.kwargs["pk"])
        if direct:
            require_director(self.request.user, tournament)
        return tournament

    def entry(self, tournament: Tournament) -> Entry:
        return get_object_or_404(
            Entry.objects.select_related("player__user"),
            tournament=tournament,
            player_id=self.kwargs["player"],
        )


def _player(pk: int, field: str) -> Player:
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise ApplicationError(
            _("there is no player %(id)s"), code="no-such-player", params={"id": pk}, field=field
        )
    return player


class Entries(_TournamentView):
    """The tournament's entries; directors register a player (an existing one by id,
    or a new one by name: refused with 409 and the similar names unless confirmed)."""

    serializer_class = EntryOutput

    @extend_schema(responses={200: EntryOutput(many=True), 404: ERRORS[404]})
    def get(self, request: Any, pk: int) -> Response:
        tournament = self.tournament(direct=False)
        rows = Entry.objects.filter(tournament=tournament).select_related("player")
        return Response(EntryOutput(rows, many=True).data)

    @extend_schema(request=EntryInput, responses={201: EntryOutput, **ERRORS, **CONFLICT})
    def post(self, request: Any, pk: int) -> Response:
        tournament = self.tournament()
        data = _valid(EntryInput, request)
        if data.get("player"):
            entry = entry_register(
                tournament=tournament,
                player=_player(data["player"], "player"),
                seed=data.get("seed"),
            )
        elif (data.get("name") or "").strip():
            entry = entry_register_new(
                tournament=tournament,
                name=data["name"],
                club=data.get("club") or "",
                rating=data.get("rating"),
                seed=data.get("seed"),
                force=data["confirm_new"],
                gender=data.get("gender"),
            )
        else:
            raise ApplicationError(
                _("give a player's id or a new player's name"),
                code="entry-player-missing",
                field="player",
            )
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class EntryDetail(_TournamentView):
    """Directors: remove an entry before the player is paired (then withdraw instead)."""

    serializer_class = EntryOutput

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Any, pk: int, player: int) -> Response:
        tournament = self.tournament()
        entry_remove(tournament=tournament, player=self.entry(tournament).player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryWithdraw(_TournamentView):
    """Directors: withdraw a player (their open series are forfeited or cancelled, as
    the tournament's ``withdrawal`` says)."""

    serializer_class = EntryOutput

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Any, pk: int, player: int) -> Response:
        tournament = self.tournament()
        entry = self.entry(tournament)
        entry_withdraw(tournament=tournament, player=entry.player)
        entry.refresh_from_db()
        return Response(EntryOutput(entry).data)


class EntryReinstate(_TournamentView):
    """Directors: undo a withdrawal; the series it forfeited are open again."""

    serializer_class = EntryOutput

    @extend_schema(request=None, responses={200: EntryOutput, **ERRORS})
    def post(self, request: Any, pk: int, player: int) -> Response:
        tournament = self.tournament()
        entry = self.entry(tournament)
        entry_reinstate(tournament=tournament, player=entry.player)
        entry.refresh_from_db()
        return Response(EntryOutput(entry).data)


class EntryInvitation(_TournamentView):
    """Directors: an invitation link by which the player claims their profile with a
    login (POST /api/invitations/claim/ or the link's page); mailed if ``email``."""

    serializer_class = InvitationOutput

    @extend_schema(request=InvitationInput, responses={201: InvitationOutput, **ERRORS})
    def post(self, request: Any, pk: int, player: int) -> Response:
        tournament = self.tournament()
        entry = self.entry(tournament)
        data = _valid(InvitationInput, request)
        token = invitation_token(player=entry.player)
        url = request.build_absolute_uri(reverse("tournaments:claim", args=[token]))
        email = data.get("email")
        if email:
            invitation_send(
                tournament=tournament,
                player=entry.player,
                email=email,
                link=url,
                by=request.user.get_username(),
            )
        body = {"token": token, "url": url, "sent_to": email or None}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Any, pk: int, player: int) -> Response:
        """Withdraw every invitation link made so far for the player (they stop working;
        POST makes a new one)."""
        tournament = self.tournament()
        invitation_withdraw(tournament=tournament, player=self.entry(tournament).player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationClaim(ServiceErrorsMixin, GenericAPIView):
    """A signed-in user claims the player an invitation is for."""

    serializer_class = PlayerSerializer
    permission_classes = [IsAuthenticated]
    filter_backends: list[Any] = []

    @extend_schema(request=ClaimInput, responses={200: PlayerSerializer, **ERRORS})
    def post(self, request: Any) -> Response:
        data = _valid(ClaimInput, request)
        player = invitation_claim(token=data["token"], user=request.user)
        return Response(PlayerSerializer(player).data)


class Directors(_TournamentView):
    """Directors: who directs the tournament; add a co-director by username."""

    serializer_class = DirectorIO

    @extend_schema(responses={200: DirectorIO(many=True), **ERRORS})
    def get(self, request: Any, pk: int) -> Response:
        tournament = self.tournament()
        names = tournament.directors.order_by("username").values_list("username", flat=True)
        return Response([{"username": n} for n in names])

    @extend_schema(request=DirectorIO, responses={201: DirectorIO, **ERRORS})
    def post(self, request: Any, pk: int) -> Response:
        tournament = self.tournament()
        data = _valid(DirectorIO, request)
        user = tournament_director_add(tournament=tournament, username=data["username"])
        return Response({"username": user.get_username()}, status=status.HTTP_201_CREATED)


class DirectorDetail(_TournamentView):
    """Directors: a co-director stops directing (the last director stays)."""

    serializer_class = DirectorIO

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Any, pk: int, username: str) -> Response:
        tournament = self.tournament()
        tournament_director_remove(tournament=tournament, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Pairs(_TournamentView):
    """Directors: the pairs of players kept apart (Swiss rounds never pair them)."""

    serializer_class = PairOutput

    @extend_schema(responses={200: PairOutput(many=True), **ERRORS})
    def get(self, request: Any, pk: int) -> Response:
        tournament = self.tournament()
        return Response(PairOutput(tournament.prohibited_pairs.all(), many=True).data)

    @extend_schema(request=PairInput, responses={201: PairOutput, **ERRORS})
    def post(self, request: Any, pk: int) -> Response:
        tournament = self.tournament()
        data = _valid(PairInput, request)
        pair = prohibited_pair_add(
            tournament=tournament,
            player_a=_player(data["player_a"], "player_a"),
            player_b=_player(data["player_b"], "player_b"),
            reason=data["reason"],
        )
        return Response(PairOutput(pair).data, status=status.HTTP_201_CREATED)


class PairDetail(_TournamentView):
    serializer_class = PairOutput

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Any, pk: int, pair: int) -> Response:
        """Directors: the two players may be paired together again."""
        tournament = self.tournament()
        prohibited_pair_remove(
            pair=get_object_or_404(ProhibitedPair, pk=pair, tournament=tournament)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerSearch(ServiceErrorsMixin, GenericAPIView):
    """Players whose name holds every word of ``q``, accents and case ignored
    ("kucerova" finds "Kučerová"); at most 20."""

    serializer_class = PlayerSerializer
    pagination_class = None
    filter_backends: list[Any] = []

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="the name, or part of it")],
        responses={200: PlayerSerializer(many=True)},
    )
    def get(self, request: Any) -> Response:
        found = players_matching(query=str(request.query_params.get("q", ""))[:120], limit=20)
        return Response(PlayerSerializer(found, many=True).data)

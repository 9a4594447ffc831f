# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""What the API shows of the models, and the inputs of its actions. Serializers check
shapes only; the rules live in tournaments/services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from tournaments.models import (
    Club,
    Correction,
    Game,
    GameEnd,
    GameKind,
    Player,
    PlayerRating,
    RatingChange,
    Round,
    Series,
    SeriesReport,
    Submission,
    TieBreak,
    Tournament,
)
from tournaments.services.online.settings import CLOCKS, TIMEOUT_COSTS
from tournaments.services.online.tournament_rooms import MAX_WINDOW
from tournaments.wording.rule_options import TOURNAMENT_OPTION_NAMES


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city", "country"]


class PlayerRatingSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerRating
        fields = ["variant", "rating", "experience", "start_rating"]
        read_only_fields = fields


class PlayerSerializer(serializers.ModelSerializer):
    """A player; ``rating``, ``start_rating`` and ``experience`` are the long nardy ones
    (deprecated: the one rating of before the ratings per game), ``ratings`` every game's
    (docs/api.md). The viewset's queryset annotates the three and prefetches ``ratings``."""

    club_name = serializers.CharField(
        source="club.name", read_only=True, default=None, allow_null=True
    )
    rating = serializers.FloatField(
        min_value=1,
        max_value=10000,
        required=False,
        help_text="deprecated: the long nardy rating (see ratings); a new value is its start",
    )
    start_rating = serializers.FloatField(
        min_value=1,
        max_value=10000,
        required=False,
        help_text="deprecated: where the long nardy rating history starts; setting it "
        "replays that history",
    )
    experience = serializers.IntegerField(
        read_only=True, help_text="deprecated: the long nardy experience (see ratings)"
    )
    ratings = PlayerRatingSerializer(
        many=True,
        read_only=True,
        help_text="the rating in each game the player has played or was given a start in "
        "(any other game: 1500, experience 0)",
    )

    class Meta:
        model = Player
        fields = [
            "id", "name", "club", "club_name", "country", "rating", "start_rating",
            "experience", "ratings", "active", "gender",
        ]  # fmt: skip


class RatingChangeSerializer(serializers.ModelSerializer):
    tournament = serializers.IntegerField(source="series.tournament_id", read_only=True)
    delta = serializers.FloatField(read_only=True)

    class Meta:
        model = RatingChange
        fields = [
            "series", "tournament", "variant", "before", "after", "delta", "experience_before",
            "at",
        ]  # fmt: skip


class OnlinePlaySerializer(serializers.Serializer):
    """A tournament played online: each round's start window (minutes after the pairing,
    or ``window_until`` for a slow event) and the rooms' clock (docs/online.md)."""

    window_minutes = serializers.IntegerField(min_value=1, max_value=MAX_WINDOW, default=15)
    window_until = serializers.DateTimeField(required=False, allow_null=True, default=None)
    clock = serializers.ChoiceField(choices=list(CLOCKS), default="live")
    delay_s = serializers.IntegerField(min_value=0, max_value=600, required=False)
    reserve_s = serializers.IntegerField(min_value=0, max_value=3600, required=False)
    days = serializers.IntegerField(min_value=1, max_value=30, required=False)
    timeout_costs = serializers.ChoiceField(choices=list(TIMEOUT_COSTS), required=False)
    pair_next = serializers.BooleanField(
        required=False,
        help_text="pair the next round by itself when the last series of the round ends "
        "(a Swiss with its number of rounds set, a round robin); false by default",
    )

    def to_representation(self, instance: Any) -> dict[str, Any]:
        until = instance.window_until
        return {"window_minutes": instance.window_minutes,
                "window_until": until.isoformat() if until else None, **instance.clock,
                "pair_next": instance.pair_next}  # fmt: skip


class TournamentSerializer(serializers.ModelSerializer):
    online = OnlinePlaySerializer(
        source="online_play", required=False, allow_null=True,
        help_text="played online (each series in a game room), null: over the board",
    )  # fmt: skip
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TieBreak.choices), required=False
    )
    lengths_by_stage = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=99), required=False
    )
    series_length = serializers.IntegerField(min_value=1, max_value=99, required=False)
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True
    )
    forfeit_game_points = serializers.IntegerField(min_value=0, max_value=99, required=False)

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "start_date", "end_date", "venue", "variant", "format", "published",
            "self_registration", "rated", "directors", "series_mode", "series_length",
            "first_move",
            *TOURNAMENT_OPTION_NAMES, "draw_scoring", "points_series_win",
            "points_series_draw", "points_series_loss", "points_per_game_point", "tie_breaks",
            "bye_points", "forfeit_game_points", "swiss_rounds", "third_place", "consolation",
            "bracket_reset", "lengths_by_stage", "withdrawal", "online",
        ]  # fmt: skip
        read_only_fields = ["directors"]

    def validate_tie_breaks(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(
                _("A tie-break is listed twice."), code="tie-break-twice"
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start = attrs.get("start_date", getattr(self.instance, "start_date", None))
        end = attrs.get("end_date", getattr(self.instance, "end_date", None))
        if start and end and end < start:
            raise serializers.ValidationError(
                {"end_date": _("The tournament ends before it starts.")}, code="ends-before-start"
            )
        return attrs


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "name", "published"]
        read_only_fields = ["published"]


class SeriesSerializer(serializers.ModelSerializer):
    round_number = serializers.IntegerField(
        source="round.number", read_only=True, default=None, allow_null=True
    )
    player1_name = serializers.CharField(
        source="player1.name", read_only=True, default=None, allow_null=True
    )
    player2_name = serializers.CharField(
        source="player2.name", read_only=True, default=None, allow_null=True
    )
    target = serializers.IntegerField(read_only=True)

    class Meta:
        model = Series
        fields = [
            "id", "tournament", "round", "round_number", "slot", "table", "player1",
            "player1_name", "player2", "player2_name", "length", "target", "status", "score1",
            "score2", "winner", "finished_at", "version", "pairing",
        ]  # fmt: skip


class CorrectionSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username", read_only=True, default=None, allow_null=True)

    class Meta:
        model = Correction
        fields = ["id", "by", "at", "reason", "before", "after"]


class GameSerializer(serializers.ModelSerializer):
    value = serializers.IntegerField(read_only=True)
    verification = serializers.CharField(
        read_only=True, help_text="what the rules engine found, in the request's language."
    )
    verification_note = serializers.JSONField(
        read_only=True,
        help_text=(
            "the same as data: a stable code and its params (tournaments/wording/verification.py)."
        ),
    )
    corrections = CorrectionSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = [
            "id", "series", "number", "white", "black", "winner", "kind", "ended", "cube",
            "value", "record", "verified", "verification", "verification_note", "entered_at",
            "version",
            "corrections",
        ]  # fmt: skip


class SubmissionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Submission
        fields = [
            "id", "series", "number", "submitted_by", "submitted_at", "white", "winner", "kind",
            "ended", "cube", "record", "status", "decided_by", "decided_at", "note", "game",
        ]  # fmt: skip


# Inputs of the actions ---------------------------------------------------------------

players = Player.objects.all()


class QuickEntryInput(serializers.Serializer):
    white = serializers.PrimaryKeyRelatedField(queryset=players)
    winner = serializers.PrimaryKeyRelatedField(queryset=players, allow_null=True)
    kind = serializers.ChoiceField(choices=GameKind.choices)
    ended = serializers.ChoiceField(choices=GameEnd.choices, default=GameEnd.PLAYED)
    cube = serializers.IntegerField(min_value=1, max_value=64, default=1)
    number = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True)


class RecordEntryInput(serializers.Serializer):
    record = serializers.CharField(trim_whitespace=False, max_length=200_000)
    number = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True)


class ReportGameInput(serializers.Serializer):
    """One game of a series report: its record, or who had white, who won and how."""

    record = serializers.CharField(
        trim_whitespace=False, max_length=200_000, required=False, allow_blank=True, default=""
    )
    white = serializers.PrimaryKeyRelatedField(queryset=players, required=False, allow_null=True)
    winner = serializers.PrimaryKeyRelatedField(queryset=players, required=False, allow_null=True)
    kind = serializers.ChoiceField(choices=GameKind.choices, required=False, allow_blank=True)
    ended = serializers.ChoiceField(choices=GameEnd.choices, default=GameEnd.PLAYED)
    cube = serializers.IntegerField(min_value=1, max_value=64, default=1)


class SubmissionInput(ReportGameInput):
    """One game submitted on its own: a report's game, with its number."""

    number = serializers.IntegerField(min_value=1, max_value=999)


class ReportInput(serializers.Serializer):
    """A series report: its games in order from the next game on, or a record file of
    them (``records``); one of the two."""

    # many=True makes a ListSerializer, which takes the length (the stubs do not say so)
    games = ReportGameInput(many=True, required=False, max_length=64)  # type: ignore[call-arg]
    records = serializers.CharField(
        trim_whitespace=False, max_length=2_000_000, required=False, allow_blank=True, default=""
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("games")) == bool(attrs.get("records", "").strip()):
            raise serializers.ValidationError(
                _("give the games or their records, one of the two"), code="report-games"
            )
        return attrs


class SeriesReportSerializer(serializers.ModelSerializer):
    submissions = SubmissionSerializer(many=True, read_only=True)

    class Meta:
        model = SeriesReport
        fields = [
            "id", "series", "submitted_by", "submitted_at", "status", "decided_by",
            "decided_at", "note", "submissions",
        ]  # fmt: skip


class RejectInput(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class CorrectionInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)
    version = serializers.IntegerField(min_value=0, help_text="the game's version you saw")
    winner = serializers.PrimaryKeyRelatedField(queryset=players, required=False, allow_null=True)
    kind = serializers.ChoiceField(choices=GameKind.choices, required=False)
    ended = serializers.ChoiceField(choices=GameEnd.choices, required=False)
    cube = serializers.IntegerField(min_value=1, max_value=64, required=False)
    record = serializers.CharField(trim_whitespace=False, max_length=200_000, required=False)
    drop_record = serializers.BooleanField(
        default=False,
        help_text="drop the game's record (and its analysis): a verified record decides the "
        "result, so a result by hand that contradicts it is refused (400 "
        "result-contradicts-record) unless the record is dropped",
    )


class DeletionInput(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False,
        help_text="why it is deleted: required, at most 500 characters (kept in the audit)",
    )  # fmt: skip


class GameDeletionInput(DeletionInput):
    confirm = serializers.BooleanField(
        default=False,
        help_text="true once the warnings of a 400 with code game-delete-confirm were read",
    )


class GenerateInput(serializers.Serializer):
    override = serializers.BooleanField(default=False)


class BracketOutput(serializers.Serializer):
    series_created = serializers.IntegerField()


class VerifyInput(serializers.Serializer):
    record = serializers.CharField(trim_whitespace=False, max_length=2_000_000)


class VerifyError(serializers.Serializer):
    message = serializers.CharField(help_text="in the language of Accept-Language")
    code = serializers.CharField(help_text='the engine\'s stable code, e.g. "point-closed"')
    params = serializers.DictField(help_text="the values the message names")
    line = serializers.IntegerField(allow_null=True)
    col = serializers.IntegerField(allow_null=True)
    turn = serializers.IntegerField(allow_null=True)
    side = serializers.CharField(allow_null=True)
    dice = serializers.CharField(allow_null=True)
    text = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)


class VerifiedGame(serializers.Serializer):
    game = serializers.IntegerField()
    ok = serializers.BooleanField()
    outcome = serializers.CharField(allow_null=True, help_text='e.g. "white mars", "draw"')
    error = VerifyError(allow_null=True)


class VerifyOutput(serializers.Serializer):
    games = VerifiedGame(many=True)


class RecordsInput(serializers.Serializer):
    record = serializers.CharField(
        trim_whitespace=False, max_length=2_000_000, required=False, help_text=".nrd text"
    )
    file = serializers.FileField(required=False, help_text="a .nrd file (UTF-8)")


class UploadedGame(serializers.Serializer):
    game = serializers.IntegerField(help_text="the game's place in the file, from 1")
    line = serializers.IntegerField(help_text="the file line where the game starts")
    ok = serializers.BooleanField()
    id = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class RecordsOutput(serializers.Serializer):
    entered = serializers.IntegerField()
    games = UploadedGame(many=True)
    refused = serializers.DictField(allow_null=True)


class FileInput(serializers.Serializer):
    file = serializers.FileField(required=False)
    text = serializers.CharField(required=False, trim_whitespace=False, max_length=20_000_000)


class PlayersImportOutput(serializers.Serializer):
    created = serializers.IntegerField()
    rejected = serializers.ListField(child=serializers.DictField())
    similar = serializers.ListField(
        child=serializers.DictField(),
        help_text="lines whose name looks like known players' (line, name, players, created): "
        "held back, or created (created: the new player's id) when sent with "
        "create_similar: true",
    )


class TournamentPlayersImportOutput(PlayersImportOutput):
    matched = serializers.IntegerField()
    entered = serializers.IntegerField()


class ArchiveImportOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    players_created = serializers.IntegerField()
    players_matched = serializers.IntegerField()
    directors_skipped = serializers.ListField(child=serializers.CharField())
    users_created = serializers.ListField(
        child=serializers.CharField(), help_text="staff only: accounts created, inactive"
    )
    submissions_skipped = serializers.IntegerField(
        help_text="not staff: submitted results by others, left out"
    )
    authors_skipped = serializers.ListField(
        child=serializers.CharField(), help_text="who submitted the results left out"
    )


class ErrorOutput(serializers.Serializer):
    detail = serializers.CharField(help_text="the refusal in words, in the request's language")
    code = serializers.CharField(help_text="a stable name of the refusal, e.g. game-out-of-order")
    params = serializers.DictField(help_text="the values the words name, e.g. {number: 3}")
    field = serializers.CharField(allow_null=True, required=False)
    line = serializers.IntegerField(allow_null=True, required=False)
    col = serializers.IntegerField(allow_null=True, required=False)
    rule = serializers.CharField(allow_null=True, required=False)
    # A declared field leaves the class body (DRF's metaclass): Serializer.errors stays.
    errors = serializers.JSONField(required=False, help_text="invalid input: each field's errors")  # type: ignore[assignment]


class ConflictOutput(serializers.Serializer):
    detail = serializers.CharField(help_text="the refusal in words, in the request's language")
    code = serializers.CharField(help_text="a stable name of the refusal, e.g. game-entered")
    params = serializers.DictField(help_text="the values the words name")
    field = serializers.CharField(allow_null=True, required=False)
    current = serializers.JSONField(allow_null=True)


class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField()
    club_name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    game_points_for = serializers.DecimalField(max_digits=8, decimal_places=1)
    game_points_against = serializers.DecimalField(max_digits=8, decimal_places=1)
    mars_wins = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=8, decimal_places=2)
    tiebreaks = serializers.SerializerMethodField()
    withdrawn = serializers.BooleanField()

    def get_tiebreaks(self, row: Any) -> dict[str, str | None]:
        return {str(name): None if v is None else str(v) for name, v in row.tiebreaks}


class TokenInput(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class RoomSeatOutput(serializers.Serializer):
    name = serializers.CharField(help_text="the series' player")
    present = serializers.BooleanField(help_text="has the room's page open now")
    joined = serializers.BooleanField(help_text="has sent the dice seed or has the page open")
    score = serializers.FloatField()
    clock_ms = serializers.IntegerField(allow_null=True, help_text="a live clock's reserve")
    on_turn = serializers.BooleanField()


class RoomDecisionOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["forfeit-both", "more-time"])
    minutes = serializers.IntegerField(allow_null=True, help_text="the minutes added")
    by = serializers.CharField(help_text="the director's username")
    at = serializers.DateTimeField()
    reason = serializers.CharField()


class TournamentRoomOutput(serializers.Serializer):
    """A series of a tournament played online and its game room."""

    room = serializers.IntegerField(source="room_id")
    series = serializers.IntegerField(source="series_id")
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    slot = serializers.CharField(help_text="a bracket's match")
    length = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["waiting", "playing", "finished", "aborted"])
    series_status = serializers.CharField()
    game = serializers.IntegerField(help_text="the game being played")
    player1 = RoomSeatOutput(source="one")
    player2 = RoomSeatOutput(source="two")
    window_closes = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="the turn's deadline")
    clock = serializers.CharField()
    no_show = serializers.CharField(help_text="the player forfeited for not showing, or empty")
    reversed = serializers.BooleanField(help_text="a no-show's forfeit reversed by a director")
    reversal_reason = serializers.CharField()
    timeouts = serializers.IntegerField(help_text="games lost on time")
    both_absent = serializers.BooleanField(
        help_text="the start window closed and neither player joined: the director decides"
    )
    decisions = RoomDecisionOutput(
        many=True, help_text="a director's decisions on the room: both lost, more time"
    )
    url = serializers.SerializerMethodField(help_text="the room's page: play or watch")
    state_url = serializers.SerializerMethodField(help_text="the room's state as JSON")

    def get_url(self, row: Any) -> str:
        from django.urls import reverse

        return reverse("tournaments:room", args=[row.room_id])

    def get_state_url(self, row: Any) -> str:
        from django.urls import reverse

        return reverse("tournaments:room-state", args=[row.room_id])


class TournamentRoomsQuery(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=10_000, required=False)
    live = serializers.BooleanField(required=False, default=False)

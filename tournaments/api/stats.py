# mypy: disallow-subclassing-any=False, disallow-untyped-decorators=False, warn-return-any=False
"""Statistics from the records (tournaments/selectors/stats.py): a game's figures, a
player's and a tournament's over the games the caller may see, with the dice verdict.

GET /api/games/<id>/stats/, /api/players/<id>/stats/, /api/tournaments/<id>/stats/."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.views import ERRORS
from tournaments.engine import PlayerStats
from tournaments.models import Game, GameAnalysis, Player
from tournaments.selectors.access import visible_tournaments
from tournaments.selectors.analysis import (
    Figures,
    game_figures,
    player_analysis,
    tournament_players_figures,
)
from tournaments.selectors.luck_share import luck_share_json, tournament_luck_share
from tournaments.selectors.stats import (
    ChiSquare,
    PlayerTotals,
    dice_verdict,
    game_analysis,
    game_stats,
    player_stats,
    tournament_stats,
)


class PlayerStatsSerializer(serializers.Serializer):
    rolls = serializers.IntegerField()
    pips_rolled = serializers.IntegerField()
    pips_expected = serializers.FloatField()
    luck = serializers.FloatField(help_text="pips rolled minus pips expected")
    doubles = serializers.IntegerField()
    no_move_turns = serializers.IntegerField()
    dice_lost = serializers.IntegerField(help_text="dice rolled but unplayable (must-play)")
    pips_lost = serializers.IntegerField()
    hits = serializers.IntegerField()
    sent_back = serializers.IntegerField(help_text="own checkers hit by the opponent")
    pips_sent_back = serializers.IntegerField()
    faces = serializers.ListField(child=serializers.IntegerField(), help_text="ones to sixes")
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="totals 2 to 12")


class ChiSquareSerializer(serializers.Serializer):
    statistic = serializers.FloatField(allow_null=True)
    df = serializers.IntegerField()
    p_value = serializers.FloatField(allow_null=True)
    needed = serializers.IntegerField(help_text="the fewest dice (faces) or rolls (totals)")


class VerdictSerializer(serializers.Serializer):
    faces = ChiSquareSerializer()
    totals = ChiSquareSerializer()
    p_value = serializers.FloatField(
        allow_null=True,
        help_text="the verdict's figure: the smaller of the two p-values after Holm's "
        "correction for making two tests (fair dice fall below 0.05 in at most 5 % of "
        "samples); null with too few rolls",
    )
    verdict = serializers.CharField()
    explanation = serializers.CharField()


class TurnPipsSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="the replay's position, as ?turn= on the page")
    number = serializers.IntegerField()
    side = serializers.CharField()
    dice = serializers.CharField()
    white = serializers.IntegerField()
    black = serializers.IntegerField()


class ErrorCountsSerializer(serializers.Serializer):
    doubtful = serializers.IntegerField()
    bad = serializers.IntegerField()
    very_bad = serializers.IntegerField()


class SideAnalysisSerializer(serializers.Serializer):
    error_rate = serializers.FloatField(help_text="mp a move where there was a choice")
    unforced = serializers.IntegerField()
    errors = ErrorCountsSerializer()  # type: ignore[assignment]  # a field, not .errors
    luck = serializers.FloatField(help_text="mp over the game")
    luck_rate = serializers.FloatField(help_text="mp a turn")
    result = serializers.FloatField(help_text="points won (negative: lost)")
    luck_adjusted_result = serializers.FloatField(
        help_text="the result minus (own luck - the opponent's luck), in points"
    )


class PlayerAnalysisSerializer(SideAnalysisSerializer):
    games = serializers.IntegerField(help_text="the analysed games the figures sum")


class PlayerTotalsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    stats = PlayerStatsSerializer()
    dice = VerdictSerializer()
    analysis = PlayerAnalysisSerializer(
        allow_null=True, help_text="the figures over their analysed games (null: none)"
    )


class TurnAnalysisSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    side = serializers.ChoiceField(choices=["white", "black"])
    dice = serializers.ListField(child=serializers.IntegerField())
    played = serializers.CharField()
    best = serializers.CharField()
    error = serializers.IntegerField(help_text="mp")
    luck = serializers.IntegerField(help_text="mp")
    mark = serializers.ChoiceField(choices=["doubtful", "bad", "very_bad"], allow_null=True)
    forced = serializers.BooleanField()
    equity = serializers.IntegerField(help_text="the mover's equity after the play, mp")


class AnalysisSerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=["gnubg", "net"])  # type: ignore[assignment]  # a field
    evaluator = serializers.CharField()
    white_error_rate = serializers.FloatField()
    black_error_rate = serializers.FloatField()
    white_luck_rate = serializers.FloatField()
    black_luck_rate = serializers.FloatField()
    white = SideAnalysisSerializer()
    black = SideAnalysisSerializer()
    turns = TurnAnalysisSerializer(many=True, help_text="the evaluator's only; [] for gnubg")
    analysed_at = serializers.DateTimeField()


class GameStatsSerializer(serializers.Serializer):
    variant = serializers.CharField()
    white = PlayerStatsSerializer()
    black = PlayerStatsSerializer()
    start = serializers.DictField(child=serializers.IntegerField())
    turns = TurnPipsSerializer(many=True)
    last_lead_change = TurnPipsSerializer(allow_null=True)
    error = serializers.CharField(allow_null=True)
    analysis = AnalysisSerializer(
        allow_null=True, help_text="the evaluator's or GNU Backgammon's figures"
    )


def _stats(stats: PlayerStats) -> dict[str, Any]:
    return stats.to_json()


def _test(t: ChiSquare) -> dict[str, Any]:
    return {"statistic": t.statistic, "df": t.df, "p_value": t.p_value, "needed": t.needed}


def _totals(row: PlayerTotals, analysed: Figures | None) -> dict[str, Any]:
    v = dice_verdict(row.stats)
    return {
        "player": row.player.pk, "name": row.player.name, "games": row.games,
        "stats": _stats(row.stats),
        "dice": {"faces": _test(v.faces), "totals": _test(v.totals), "p_value": v.p_value,
                 "verdict": v.verdict, "explanation": v.explanation},
        "analysis": None if analysed is None else _side(analysed) | {"games": analysed.games},
    }  # fmt: skip


def _side(figures: Figures) -> dict[str, Any]:
    return {"error_rate": round(figures.error_rate, 1), "unforced": figures.unforced,
            "errors": figures.errors, "luck": round(figures.luck, 1),
            "luck_rate": round(figures.luck_rate, 1), "result": figures.result,
            "luck_adjusted_result": round(figures.adjusted, 3)}  # fmt: skip


TURN_KEYS = ("turn", "side", "dice", "played", "best", "error", "luck", "mark", "forced", "equity")


def _analysis(game: Game, analysis: GameAnalysis) -> dict[str, Any]:
    return {
        "source": analysis.source, "evaluator": analysis.evaluator,
        "white_error_rate": analysis.white_error_rate,
        "black_error_rate": analysis.black_error_rate,
        "white_luck_rate": analysis.white_luck_rate,
        "black_luck_rate": analysis.black_luck_rate,
        "white": _side(game_figures(game, analysis, "white")),
        "black": _side(game_figures(game, analysis, "black")),
        "turns": [{k: t.get(k) for k in TURN_KEYS} for t in analysis.turns],
        "analysed_at": analysis.analysed_at,
    }  # fmt: skip


class GameStats(ServiceErrorsMixin, APIView):
    @extend_schema(
        responses={200: GameStatsSerializer, 404: ERRORS[404]}, operation_id="games_stats"
    )
    def get(self, request: Any, pk: int) -> Response:
        """A recorded game's figures: per player the pips rolled and expected, doubles,
        turns with no legal move, dice lost, hits; the pip count after every turn. 404
        for a game without a record."""
        game = get_object_or_404(
            Game.objects.filter(series__tournament__in=visible_tournaments(request.user)), pk=pk
        )
        stats = game_stats(game)
        if stats is None:
            body = {"detail": _("this game has no readable record"), "code": "no-record",
                    "params": {}}  # fmt: skip
            return Response(body, status=404)
        data = stats.to_json()
        data["white"].pop("name")  # type: ignore[attr-defined]
        data["black"].pop("name")  # type: ignore[attr-defined]
        analysis = game_analysis(game)
        data["analysis"] = None if analysis is None else _analysis(game, analysis)
        return Response(data)


class PlayerStatsView(ServiceErrorsMixin, APIView):
    @extend_schema(
        responses={200: PlayerTotalsSerializer, 404: ERRORS[404]}, operation_id="players_stats"
    )
    def get(self, request: Any, pk: int) -> Response:
        """A player's figures over their recorded games in the tournaments the caller may
        see, with a chi-square test of the faces and of the totals against fair dice."""
        player = get_object_or_404(Player, pk=pk)
        analysed = player_analysis(player=player, user=request.user)
        return Response(_totals(player_stats(player=player, user=request.user), analysed))


class TournamentStatsView(ServiceErrorsMixin, APIView):
    @extend_schema(
        responses={200: PlayerTotalsSerializer(many=True), 404: ERRORS[404]},
        operation_id="tournaments_stats",
    )
    def get(self, request: Any, pk: int) -> Response:
        """Every player's figures over the tournament's recorded games, by name."""
        tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
        analysed = tournament_players_figures(tournament.pk)
        rows = tournament_stats(tournament=tournament)
        return Response([_totals(row, analysed.get(row.player.pk)) for row in rows])


class LuckShareSerializer(serializers.Serializer):
    variant = serializers.CharField(help_text="the kind of game: long, short or lurc")
    games = serializers.IntegerField(help_text="the games analysed by the evaluator")
    r2 = serializers.FloatField(
        allow_null=True,
        help_text="the share (0-1) of the results' variance the luck difference explains "
        "(R² of white's result on white's luck minus black's); null under 3 games",
    )
    slope = serializers.FloatField(
        allow_null=True, help_text="points of result per point of luck difference"
    )
    mean_abs_luck = serializers.FloatField(help_text="the mean |luck difference| a game, points")
    sentence = serializers.CharField(help_text="the figure said in the reader's language")


class TournamentLuckShareView(ServiceErrorsMixin, APIView):
    @extend_schema(
        responses={200: LuckShareSerializer(many=True), 404: ERRORS[404]},
        operation_id="tournaments_stats_luck_share",
    )
    def get(self, request: Any, pk: int) -> Response:
        """How much of the results of the tournament's analysed games the dice explain,
        by kind of game (as ``python -m engine luck-share`` measures it over self-play)."""
        tournament = get_object_or_404(visible_tournaments(request.user), pk=pk)
        return Response([luck_share_json(row) for row in tournament_luck_share(tournament.pk)])

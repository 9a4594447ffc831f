"""A game against the bot's page (/play/<id>/, docs/play.md): a game kept from a game
room (read only), or one begun here before every game moved into the rooms, played on
with plain forms, POST-redirect-GET; the service checks every turn through the engine.
The lobby (/play/, views/online.py) starts every new game in a room."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.gzip import gzip_page

from tournaments.forms import PlayTurnForm
from tournaments.models import BotGame, BotGameStatus
from tournaments.selectors.botgames import BotGamePage, bot_game_page
from tournaments.selectors.steps import BotSteps, bot_steps
from tournaments.services.botgames import botgame_cube, botgame_play, botgame_resign
from tournaments.services.errors import ApplicationError
from tournaments.views.common import asked_turn
from tournaments.views.fragments import replay_html
from tournaments.views.rollouts import botgame_rollout_context

# refusals of a page that was right once (submitted twice, or the game ended meanwhile)
CONFLICTS = {"bot-stale-version", "bot-game-over", "bot-not-your-turn"}
PAS_CHOICES = ("1", "2", "3", "4", "5", "6")  # a Lurč houšek's paš (Z8), as a page asks it


def _own_game(request: HttpRequest, pk: int) -> BotGame:
    game: BotGame = get_object_or_404(BotGame, pk=pk, user_id=request.user.pk)
    return game


@login_required
@gzip_page  # a finished game's replay (every position) and analysis: several times smaller
def play_game(request: HttpRequest, pk: int) -> HttpResponse:
    """The game: the board, the dice and the legal turns as buttons; a POST plays one, or
    resigns (``resign``). A finished game: its replay, the analysis and the chart."""
    game = _own_game(request, pk)
    error, status = "", 200
    if request.method == "POST":
        form = PlayTurnForm(request.POST)
        if form.is_valid():
            version = form.cleaned_data["version"]
            try:
                if request.POST.get("resign"):
                    botgame_resign(game_id=game.pk, user=request.user, version=version)
                elif request.POST.get("cube"):  # roll, double, take, drop (S7)
                    botgame_cube(game_id=game.pk, user=request.user, version=version,
                                 action=request.POST["cube"][:10])  # fmt: skip
                else:
                    botgame_play(game_id=game.pk, user=request.user, version=version,
                                 turn=form.cleaned_data["turn"],
                                 pas=form.cleaned_data["pas"])  # fmt: skip
            except BotGame.DoesNotExist:
                raise Http404 from None
            except ApplicationError as exc:
                error, status = exc.message, 409 if exc.code in CONFLICTS else 400
            else:
                return redirect("tournaments:play_game", pk=game.pk)
        else:
            error, status = " ".join(str(e) for errs in form.errors.values() for e in errs), 400
        game.refresh_from_db()
    asked = request.POST.get("pas") or request.GET.get("pas") or ""
    page = bot_game_page(game, int(asked) if asked in PAS_CHOICES else None)
    steps, refused = _steps(request, game, page)
    code = ""
    if refused is not None:
        error, status, code = refused.message, 400, refused.code
    context: dict[str, object] = {"p": page, "error": error, "error_code": code, "steps": steps}
    if game.status == BotGameStatus.FINISHED:  # the replay of the game, marked when analysed
        marks = page.analysis.marks if page.analysis is not None else []
        replay = replay_html(game.record, asked_turn(request), marks)
        context |= {"replay_html": replay.html, "has_frames": replay.last >= 0}
        context |= botgame_rollout_context(game)
    return render(request, "tournaments/play_game.html", context, status=status)


def _steps(
    request: HttpRequest, game: BotGame, page: BotGamePage
) -> tuple[BotSteps | None, ApplicationError | None]:
    """The turn entered step by step when the roll has too many turns to list (the steps
    so far in the address), and the refusal of steps no legal turn begins with."""
    if not page.your_turn or not page.dice:
        return None, None
    written = request.GET.get("steps", "")[:400]
    try:
        return bot_steps(game.record, page.dice, page.pas, len(page.turns), written), None
    except ApplicationError as exc:
        return bot_steps(game.record, page.dice, page.pas, len(page.turns), ""), exc


@login_required
def play_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game's record as a text file, in the project's notation."""
    game = _own_game(request, pk)
    response = HttpResponse(game.record, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="bot-game-{game.pk}.nrd"'
    return response

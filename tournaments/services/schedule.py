"""A round robin's whole schedule at once, and rounds published one by one
(docs/pairings.md, docs/director_rounds.md).

The Berger tables (tournaments/pairing/roundrobin.py) fix every round of a round robin
from its players alone, so a director may pair them all in one step: the rounds come
unpublished, unseen by players and visitors (selectors/access.py), and the director
publishes them in order as the event goes on. A round paired the usual way (one at a
time) is published at once, as before."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.caching import tournaments_touch
from tournaments.models import Round, Tournament
from tournaments.selectors.access import User, is_director
from tournaments.services.errors import ApplicationError, PermissionDenied
from tournaments.services.pairings import _round_robin_round
from tournaments.services.setup import FIXED_PLAYER_FORMATS


@transaction.atomic
def round_robin_pair_all(*, tournament: Tournament) -> list[Round]:
    """Pair every round of a round robin not paired yet (all of it before round 1), each
    by its Berger table, unpublished; returns the new rounds in order."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.format not in FIXED_PLAYER_FORMATS:
        raise ApplicationError(
            _("Only a round robin's schedule is known in advance: pair a %(format)s round "
              "by round."),
            code="schedule-round-robin-only",
            params={"format": tournament.get_format_display()},
        )  # fmt: skip
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    made: list[Round] = []
    number = last + 1
    while True:
        try:
            rnd = _round_robin_round(tournament, number)
        except ApplicationError as exc:
            if exc.code == "round-robin-complete" and (made or last):
                break
            raise
        rnd.published = False
        rnd.save(update_fields=["published"])
        made.append(rnd)
        number += 1
    if not made:
        raise ApplicationError(
            _("All rounds of the round robin are paired already."),
            code="round-robin-all-paired",
        )
    return made


@transaction.atomic
def round_publish(*, round: Round, by: User) -> Round:
    """Show a round paired ahead to players and visitors; the rounds before it first."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if not is_director(by, rnd.tournament):
        raise PermissionDenied(
            _("only the tournament's directors may do this"), code="round-publish-not-director"
        )
    if rnd.published:
        raise ApplicationError(
            _("Round %(n)d is published already."), code="round-published",
            params={"n": rnd.number},
        )  # fmt: skip
    earlier = Round.objects.filter(
        tournament=rnd.tournament, number__lt=rnd.number, published=False
    ).order_by("number").first()  # fmt: skip
    if earlier is not None:
        raise ApplicationError(
            _("Publish round %(earlier)d first: rounds are published in order."),
            code="round-publish-order",
            params={"earlier": earlier.number},
        )
    return round_show(rnd)


def round_show(rnd: Round) -> Round:
    """The locked round is published: its rooms open when the tournament is played online
    (also the next round published by itself, services/online/tournament_rooms.py)."""
    rnd.published = True
    rnd.save(update_fields=["published"])
    from tournaments.services.online.tournament_rooms import round_rooms_create

    round_rooms_create(round=rnd)  # a tournament played online: the round's rooms open now
    tournaments_touch(ids=[rnd.tournament_id])
    return rnd


def next_unpublished(tournament: Tournament) -> Round | None:
    """The round the director publishes next, if any."""
    return tournament.rounds.filter(published=False).order_by("number").first()


__all__ = ["next_unpublished", "round_publish", "round_robin_pair_all", "round_show"]

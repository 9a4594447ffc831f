"""The evaluator's credit under an analysis, in words: the stored name is the weights'
file header ("long (50000 games, 4a99885)": the variant, the self-play games it was
trained on, the commit), which is for developers; the reader is told "the network for
long nardy, 50,000 games", in their language (the commit stays in the API)."""

from __future__ import annotations

import re

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

NAME = re.compile(r"^(?P<variant>\w+) \((?P<games>\d+|\?) games, (?P<commit>\w*)\)$")
# "the network for ...": each variant in the case the sentence needs
NETWORKS = {
    "long": _("the network for long nardy"),
    "short": _("the network for short backgammon"),
    "lurc": _("the network for Lurč"),
}


def evaluator_credit(name: str) -> str:
    """What trained the evaluator that analysed a game, said to a reader; a name of
    another form is shown as it is.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     evaluator_credit("long (50000 games, 4a99885)")
    'the network for long nardy, 50,000 games'
    """
    found = NAME.match(name.strip())
    if found is None or found["variant"] not in NETWORKS:
        return name
    network = str(NETWORKS[found["variant"]])
    if found["games"] == "?":
        return network
    games = int(found["games"])
    count = number_format(games, force_grouping=True)
    return ngettext("%(network)s, %(games)s game", "%(network)s, %(games)s games", games) % {
        "network": network,
        "games": count,
    }


__all__ = ["evaluator_credit"]

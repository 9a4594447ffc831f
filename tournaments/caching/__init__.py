"""Everything the site caches, in one package (docs/caching.md).

- ``keys``: cache keys (a tournament's by its ``cache_version``) and ``cached``, the
  read-through of one value;
- ``invalidation``: every write bumps the versions (model signals, ``tournaments_touch``);
- ``generations``: the versions read from the shared cache, never stale (tokens, cells);
- ``versions``: what each public page shows, read as a version;
- ``pages``: whole responses for anonymous visitors, ETag and 304.

The names most code needs are re-exported here; the pages and versions are imported from
their modules (they are the views' business).
"""

from tournaments.caching.invalidation import (
    connect_signals,
    people_changed,
    tournaments_touch,
    tournaments_touch_players,
)
from tournaments.caching.keys import TIMEOUT, cached, digest, key, tournament_key

__all__ = [
    "TIMEOUT",
    "cached",
    "connect_signals",
    "digest",
    "key",
    "people_changed",
    "tournament_key",
    "tournaments_touch",
    "tournaments_touch_players",
]

"""The bot's levels (no numpy here: the command line lists them without loading it)."""

from __future__ import annotations

# name -> (ply, noise in points on each 0-ply equity); the default is the strongest
LEVELS: dict[str, tuple[int, float]] = {
    "beginner": (0, 0.30),
    "casual": (0, 0.12),
    "intermediate": (0, 0.05),
    "advanced": (0, 0.0),
    "strongest": (1, 0.0),
}
DEFAULT_LEVEL = "strongest"

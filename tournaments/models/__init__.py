"""The tournament domain: clubs and players, tournaments and rounds, series and games."""

from tournaments.models.analysis import AnalysisSource, GameAnalysis
from tournaments.models.botgame import BotColour, BotGame, BotGameStatus
from tournaments.models.deletion import Deletion, DeletionKind
from tournaments.models.job import Job, JobKind, JobStatus
from tournaments.models.merging import EntryRequest, EntryRequestStatus, PlayerMerge
from tournaments.models.online import (
    Challenge,
    ChallengeStatus,
    Room,
    RoomGame,
    RoomGameEnd,
    RoomStatus,
)
from tournaments.models.online_tournament import (
    MailPreference,
    OnlinePlay,
    RoomDecision,
    SeriesRoom,
)
from tournaments.models.people import START_RATING, Club, Player, PlayerRating, RatingChange
from tournaments.models.series import (
    CLOSED_STATUSES,
    Correction,
    Game,
    GameEnd,
    GameKind,
    Series,
    SeriesStatus,
    points_of,
)
from tournaments.models.submission import SeriesReport, Submission, SubmissionStatus
from tournaments.models.tournament import (
    DEFAULT_TIE_BREAKS,
    DrawScoring,
    Entry,
    FirstMove,
    Format,
    ProhibitedPair,
    Round,
    SeriesMode,
    TieBreak,
    Tournament,
    Variant,
)

__all__ = [
    "CLOSED_STATUSES",
    "DEFAULT_TIE_BREAKS",
    "START_RATING",
    "AnalysisSource",
    "BotColour",
    "BotGame",
    "BotGameStatus",
    "Challenge",
    "ChallengeStatus",
    "Club",
    "Correction",
    "Deletion",
    "DeletionKind",
    "DrawScoring",
    "Entry",
    "EntryRequest",
    "EntryRequestStatus",
    "FirstMove",
    "Format",
    "Game",
    "GameAnalysis",
    "GameEnd",
    "GameKind",
    "Job",
    "JobKind",
    "JobStatus",
    "MailPreference",
    "OnlinePlay",
    "Player",
    "PlayerMerge",
    "PlayerRating",
    "ProhibitedPair",
    "RatingChange",
    "Room",
    "RoomDecision",
    "RoomGame",
    "RoomGameEnd",
    "RoomStatus",
    "Round",
    "Series",
    "SeriesMode",
    "SeriesReport",
    "SeriesRoom",
    "SeriesStatus",
    "Submission",
    "SubmissionStatus",
    "TieBreak",
    "Tournament",
    "Variant",
    "points_of",
]

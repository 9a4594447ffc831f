"""Long work off the request (docs/jobs.md): archive and player imports, record uploads,
verify_games and recompute, as jobs with their progress and result in the database."""

from tournaments.jobs.access import visible_jobs
from tournaments.jobs.runner import JobError, job_run, job_start, queued

__all__ = ["JobError", "job_run", "job_start", "queued", "visible_jobs"]

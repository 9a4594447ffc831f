"""Services: every write of the tournament domain (STYLE.md 4-5). Views, the API, the
admin and the management commands call these and hold no rules of their own."""

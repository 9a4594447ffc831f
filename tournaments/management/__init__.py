"""Management commands: thin, they call the services (STYLE.md 12)."""

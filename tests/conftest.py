"""Shared pytest configuration; pytest-django reads its settings from pyproject.toml."""

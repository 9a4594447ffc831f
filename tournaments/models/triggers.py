"""Database triggers the models' constraints cannot express, for PostgreSQL and SQLite.

No game may be added to a finished or forfeited series. SQLite rebuilds a table to alter
it, and a trigger that names the table being rebuilt breaks the rebuild: a migration that
alters ``tournaments_series`` or ``tournaments_game`` must drop the triggers first and
create them again last (see migration 0003)."""

from __future__ import annotations

from typing import Any

MESSAGE = "a game cannot be added to a finished or forfeited series"

POSTGRES_UP = f"""
CREATE OR REPLACE FUNCTION tournaments_game_series_open() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM tournaments_series WHERE id = NEW.series_id)
            IN ('finished', 'forfeited') THEN
        RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS tournaments_game_series_open ON tournaments_game;
CREATE TRIGGER tournaments_game_series_open BEFORE INSERT ON tournaments_game
    FOR EACH ROW EXECUTE FUNCTION tournaments_game_series_open();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS tournaments_game_series_open ON tournaments_game;
DROP FUNCTION IF EXISTS tournaments_game_series_open();
"""
SQLITE_UP = f"""
CREATE TRIGGER IF NOT EXISTS tournaments_game_series_open BEFORE INSERT ON tournaments_game
WHEN (SELECT status FROM tournaments_series WHERE id = NEW.series_id)
    IN ('finished', 'forfeited')
BEGIN
    SELECT RAISE(ABORT, '{MESSAGE}');
END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS tournaments_game_series_open;"


def _run(schema_editor: Any, sql: dict[str, str]) -> None:
    statement = sql.get(schema_editor.connection.vendor)
    if statement:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(statement)


def create_triggers(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP})


def drop_triggers(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN})

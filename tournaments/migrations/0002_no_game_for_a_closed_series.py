"""A database trigger: no game may be added to a finished or forfeited series.

Django's constraints cannot look at another table, so this is a trigger, written for
each database the project runs on (PostgreSQL in production, SQLite for development).
"""

from django.db import migrations

MESSAGE = "a game cannot be added to a finished or forfeited series"

POSTGRES_UP = f"""
CREATE FUNCTION tournaments_game_series_open() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM tournaments_series WHERE id = NEW.series_id)
            IN ('finished', 'forfeited') THEN
        RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournaments_game_series_open BEFORE INSERT ON tournaments_game
    FOR EACH ROW EXECUTE FUNCTION tournaments_game_series_open();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS tournaments_game_series_open ON tournaments_game;
DROP FUNCTION IF EXISTS tournaments_game_series_open();
"""
SQLITE_UP = f"""
CREATE TRIGGER tournaments_game_series_open BEFORE INSERT ON tournaments_game
WHEN (SELECT status FROM tournaments_series WHERE id = NEW.series_id)
    IN ('finished', 'forfeited')
BEGIN
    SELECT RAISE(ABORT, '{MESSAGE}');
END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS tournaments_game_series_open;"


def up(apps, schema_editor):
    sql = {"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}.get(schema_editor.connection.vendor)
    if sql:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)


def down(apps, schema_editor):
    sql = {"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN}.get(schema_editor.connection.vendor)
    if sql:
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(up, down)]

"""Games played on the site (docs/online.md): challenges, game rooms, their clock."""

"""The per-vault SQLite index: connection, migrations, and typed reads and writes."""

"""Moving a club's data in and out: a whole club as one file and back (transfer), backups of
the installation and their restore (backup), bulk imports of results (imports) read from the
spreadsheets a secretary saves (sheets) with a game's plain columns (columns). The top room:
it imports the results' services and the journal; only the jobs and commands import it."""

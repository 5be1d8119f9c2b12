"""Moving a club's data in and out: a whole club as one file and back (transfer), backups of
the installation and their restore (backup), bulk imports of results (imports) read from the
spreadsheets a secretary saves (sheets) with a game's plain columns (columns), and what the
pages read of an import without writing: its template, what was understood of a file
(selectors). The top room: it imports the results' services and the journal; the pages, the
API and the apps above import it; in ledger/clubs only the jobs and the commands do."""

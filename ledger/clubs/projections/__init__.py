"""What is read off the journal and the results: the standings and per-round totals kept as
projections and their rebuilds (projections), the standings as a table is shown (standings),
each player's totals summed from the journal itself (totals) and a player's figures per game
(playerstats). Imports the models, the outcomes, the storage and the office's list of
entrants; never the journal's writers above it."""

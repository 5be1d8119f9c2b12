"""Results: recording, confirming, disputing, correcting and voiding them, and the tables
they are played at (services); who may confirm one (confirmers); previews that run the very
write they preview (previews); penalties (penalties). Writes through the journal; may import
the journal, projections, ratings, office, webhooks and the ground floor, never transfer."""

"""Results: recording, confirming, disputing, correcting and voiding them, and the tables
they are played at (services); what the pages and the API read of them, without writing:
who must and who may confirm, the penalties that stand (selectors); who may confirm one
(confirmers); previews that run the very write they preview (previews); penalties given and
cancelled (penalties). Writes through the journal; may import the journal, projections,
ratings, office, webhooks and the ground floor, never transfer. The selectors import no
module of this room that writes."""

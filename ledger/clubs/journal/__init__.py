"""The journal: each club's append-only, hash-chained lines and the checks of its chain
(journal), the signed checkpoints it extends and the proofs that it does (checkpoints), what
the pages, the API and the webhooks read of them without writing: the latest checkpoint, the
club's feed, the keys it keeps (selectors), and the audit of the projections against it
(audit). Imports the models, storage, outcomes, ratings and projections (a line moves them in
its own transaction); never the results' services that write through it. The selectors import
no module that writes."""

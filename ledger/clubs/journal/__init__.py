"""The journal: each club's append-only, hash-chained lines and the checks of its chain
(journal), the signed checkpoints it extends (checkpoints), and the audit of the projections
against it (audit). Imports the models, storage, outcomes, ratings and projections (a line
moves them in its own transaction); never the results' services that write through it."""

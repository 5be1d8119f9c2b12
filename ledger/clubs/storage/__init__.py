"""How the ledger's writes reach the disk: plain SQL for the write path (rows), the service's
signing key and the seals on journal lines (signing), and requests that share one commit
(groupcommit). The ground floor: it imports nothing of the ledger, so the club's models and
every room above may use it."""

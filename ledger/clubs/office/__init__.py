"""The club's back office: members and their roles (office), the one role check every write
makes first (roles), who takes part in a competition (entrants), who may read a result not
confirmed yet (visibility), and the office's other reads: its members as listed, an invitation
found by its key (selectors). Imports the club's models and ledger/clubs/errors.py alone."""

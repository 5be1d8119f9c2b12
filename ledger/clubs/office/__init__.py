"""The club's back office: members and their roles (office), the one role check every write
makes first (roles), who takes part in a competition (entrants) and who may read a result not
confirmed yet (visibility). Imports the club's models and ledger/clubs/errors.py alone."""

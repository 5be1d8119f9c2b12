"""Pairing and seating algorithms. Pure Python: nothing here imports Django, so the
algorithms can be tested with hypothesis and benchmarked alone (Tabbycat keeps its draw
generators the same way). ledger.formats.services loads rows, calls these and writes."""

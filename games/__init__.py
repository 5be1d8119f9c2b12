"""Rules engines for the club's games. Pure Python: nothing here imports Django."""

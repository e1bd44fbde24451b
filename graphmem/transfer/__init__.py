"""Moving a tenant: ``graphmem export`` writes it as JSON Lines, ``graphmem import`` loads a
file into an empty tenant (the same database or another) and re-chains its history."""

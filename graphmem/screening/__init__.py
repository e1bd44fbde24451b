"""The poisoning gate: every text that enters graphmem is screened before it is stored."""

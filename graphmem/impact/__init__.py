"""Impact: what depends on what (recorded IMPACTS edges and derived ones) and explain_impact."""

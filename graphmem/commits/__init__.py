"""Commits: git commits recorded with explicit links to the sessions that made them."""

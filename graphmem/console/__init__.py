"""The operator's console: one-line messages on stderr and progress bars of the commands."""

"""The raw archive: conversation turns and sessions, searchable and threaded in order."""

"""Workstreams: named lines of work that chunks, sessions and commits belong to."""

"""Memories and the raw archive: curated memories, workstreams, commits and raw turns."""

"""Composition over facts, memories, search, the archive and workstreams: recall_user_context,
context bundles and timelines.
"""

"""Retrieval machinery shared by memories, the archive and search: tenant-partitioned lexical
text, embedding texts in batches, the vector space check, and the background indexer.
"""

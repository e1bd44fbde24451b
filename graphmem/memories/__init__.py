"""Memories: curated notes with topic versions, recall, context bundles and the timeline."""

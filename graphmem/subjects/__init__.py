"""Subjects: the people, organisations, places, projects and things the memory is about."""

"""Request and result models of the knowledge pipeline."""

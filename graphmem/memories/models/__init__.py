"""Request and result models of the memories area."""

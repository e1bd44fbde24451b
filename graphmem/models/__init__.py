"""Pydantic models of everything that crosses a boundary. Pure: no I/O."""

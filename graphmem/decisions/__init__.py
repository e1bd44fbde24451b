"""Decisions: choices with alternatives, reopen rules over fact keys, attempts and outcomes,
review.
"""

"""Search: full-text, vector and graph channels over memories and raw turns, fused by weighted
reciprocal rank.
"""

"""The process layer: server assembly, CLI, settings, authentication, HTTP limits and the tool
boundary.
"""

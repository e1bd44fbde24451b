"""The tool framework: one declaration per tool (toolspec), the services a handler gets, the
error boundary, schema derivation, and the store gate calls wait on.
"""

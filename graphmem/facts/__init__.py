"""Facts: observed values under a project and key, their validity in time, governance, verification
and current_state.
"""

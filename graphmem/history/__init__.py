"""History: the tenant's hash-chained event log, its head, and replay."""

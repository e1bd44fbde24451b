// Connectivity and readiness check: answers once the database accepts queries.
RETURN 1 AS ok

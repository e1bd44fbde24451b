// Block until every index (including those backing constraints) is online.
CALL db.awaitIndexes(300)

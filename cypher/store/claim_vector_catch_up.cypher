// One process at a time embeds what was written without the model (graphmem/retrieval/
// catch_up.py): the claim is $owner's until $until (epoch seconds), renewed at every page,
// taken over once it lapses. The space's lock is taken before it is looked at, so two
// processes claiming at once see each other's claim. Database-wide, like the vector space.
MATCH (space:VectorSpace {name: 'search'})
SET space._lock = true
REMOVE space._lock
WITH space
WHERE space.catch_up_owner IS NULL OR space.catch_up_owner = $owner
   OR space.catch_up_until < $now
SET space.catch_up_owner = $owner, space.catch_up_until = $until
RETURN count(space) AS claimed

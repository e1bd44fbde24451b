// The catch-up of $owner is over (done, failed or stopped): another process may claim it.
MATCH (space:VectorSpace {name: 'search'})
WHERE space.catch_up_owner = $owner
REMOVE space.catch_up_owner, space.catch_up_until
RETURN count(space) AS released

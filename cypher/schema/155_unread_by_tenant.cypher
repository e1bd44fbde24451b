// The sources a subjects pass waits for are found by Unread(tenant, id) (158), the tenant
// alone a prefix of it: an index on the tenant alone was a second entry to write and remove
// for every memory, turn, chunk and claim. Dropped where an older graphmem made it.
DROP INDEX unread_by_tenant IF EXISTS

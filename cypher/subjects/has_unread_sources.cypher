// Whether the tenant has memories or turns whose subjects were not read yet: a read, so a
// settle with nothing to do writes nothing (an index seek on the Unread label's tenant).
RETURN EXISTS { MATCH (n:Unread) WHERE n.tenant = $tenant } AS unread

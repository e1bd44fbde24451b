// The turns waiting for their vector, per tenant: a sweep reads its own tenant's only, however
// many another tenant has waiting (retrieval/list_unembedded_turns).
CREATE INDEX unembedded_by_tenant IF NOT EXISTS FOR (n:Unembedded) ON (n.tenant)

// search_raw and search's raw channel: BM25 over a turn's tenant-prefixed tokens (date words
// and content), so document frequencies count the caller's tenant only. Whitespace analyzer:
// graphmem makes the tokens itself.
CREATE FULLTEXT INDEX turn_lexical IF NOT EXISTS FOR (t:Turn) ON EACH [t.lexical]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}}

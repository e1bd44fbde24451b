// search's full-text channel over curated memories: tenant-prefixed tokens of title (twice),
// type, topic, tags and content (graphmem/retrieval/lexical.py), whitespace analyzer.
CREATE FULLTEXT INDEX memory_lexical IF NOT EXISTS FOR (m:Memory) ON EACH [m.lexical]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}}

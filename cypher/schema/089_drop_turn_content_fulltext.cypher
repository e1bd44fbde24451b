// The first raw-archive index read Turn.content with Lucene's own analyzer, so BM25's document
// frequencies mixed every tenant's turns. It is replaced by turn_lexical (tenant-prefixed
// tokens, graphmem/retrieval/lexical.py); drop it where an older graphmem created it.
DROP INDEX turn_content_fulltext IF EXISTS

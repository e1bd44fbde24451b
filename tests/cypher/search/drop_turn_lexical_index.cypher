// Drop the raw archive's full-text index, to prove that search keeps its curated results when
// the raw-archive fallback fails (apply_schema recreates it).
DROP INDEX turn_lexical IF EXISTS

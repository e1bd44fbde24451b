// Whether a pass has anything to do: sources (memories, turns, chunks, claims) whose subjects
// were not read yet (what list_unread_sources reads), or a backlog of those written before
// subjects not yet walked (subjects/label_unread_backlog). A read, so a settle with nothing to do writes nothing
// (index seeks on the tenant).
RETURN EXISTS {
         MATCH (n:Unread)
         WHERE n.tenant = $tenant AND n.id > '' AND (n:Memory OR n:Turn OR n:Chunk OR n:Claim)
           AND NOT n:ImportPending
       }
    OR NOT EXISTS {
      MATCH (l:SubjectLedger)
      WHERE l.tenant = $tenant AND l.backlog_done AND l.knowledge_backlog_done AND l.keys_done
    }
    AS unread

"""The projection's writes: one parameterised UNWIND statement per event type."""

from __future__ import annotations

# Users, entities and applied commands are merged once per wave or batch over their distinct
# keys; merging them row by row would lock and re-check the same few dense nodes thousands of times.
USERS = """
UNWIND $keys AS user_id
MERGE (u:User {user_id: user_id})
  ON CREATE SET u.name = user_id
"""

ENTITIES = """
UNWIND $keys AS e
MERGE (en:Entity {entity_id: e.entity_id})
  ON CREATE SET en.user_id = e.user_id, en.name = e.name, en.type = e.type, en.user_key = e.user_key
  ON MATCH SET en.type = CASE en.type WHEN 'thing' THEN e.type ELSE en.type END
"""

# Client-chosen ids (commands, episodes) belong to their person: nodes are merged on a key
# derived from the person and the id, never on the id alone.
EPISODES = """
UNWIND $keys AS e
MERGE (ep:Episode {key: e.key})
  ON CREATE SET ep.user_id = e.user_id, ep.episode_id = e.episode_id
"""

# What each command came to, so that its id answers the same way however often it is sent.
APPLIED_COMMANDS = """
UNWIND $keys AS c
MERGE (a:AppliedCommand {key: c.key})
  ON CREATE SET a.user_id = c.user_id, a.command_id = c.command_id, a.outcome = c.outcome,
                a.code = c.code, a.reason = c.reason, a.memory_id = c.memory_id
"""

ALREADY_APPLIED = """
UNWIND $keys AS key
MATCH (a:AppliedCommand {key: key})
RETURN a.key AS key
"""

# Besides its kind (`:Preference`), a memory carries its status as a label (`:Active`,
# `:Superseded`, `:Forgotten`, `:Merged`, `:Compressed`), kept in step with `status` by every
# statement that changes it: Neo4j Browser's style (GraSS) colours by label only.
MEMORY_RECORDED = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
MERGE (m:Memory {memory_id: r.memory_id})
SET m += r.props, m:$(r.label),
    m.valid_from = datetime(r.valid_from), m.valid_until = datetime(r.valid_until),
    m.stated_valid_until = datetime(r.valid_until), m.occurred_at = datetime(r.occurred_at),
    m.recorded_at = datetime(r.recorded_at), m.due_at = datetime(r.due_at),
    m.remind_at = datetime(r.remind_at)
REMOVE m:Active:Superseded:Forgotten:Merged:Compressed
SET m:$(toUpper(left(m.status, 1)) + substring(m.status, 1))
MERGE (u)-[:REMEMBERS]->(m)
WITH u, m, r
CALL (u, r) {
  WITH u, r WHERE r.profile_change
  SET u.profile_changes = coalesce(u.profile_changes, 0) + 1
}
WITH m, r
CALL (m, r) {
  UNWIND r.entity_ids AS entity_id
  MATCH (en:Entity {entity_id: entity_id})
  MERGE (m)-[:ABOUT]->(en)
}
CALL (m, r) {
  UNWIND r.episodes AS episode_key
  MATCH (ep:Episode {key: episode_key})
  MERGE (m)-[:EXTRACTED_FROM]->(ep)
}
CALL (m, r) {
  UNWIND r.message_ids AS message_id
  MATCH (x:Message {message_id: message_id})
  MERGE (m)-[:FROM_MESSAGE]->(x)
}
CALL (m, r) {
  UNWIND r.relations AS rel
  MATCH (b:Entity {entity_id: rel.object})
  OPTIONAL MATCH (named:Entity {entity_id: rel.subject})
  MATCH (u:User {user_id: r.user_id})
  WITH coalesce(named, u) AS a, b, rel, m
  MERGE (a)-[x:RELATES {predicate: rel.predicate, memory_id: m.memory_id}]->(b)
}
WITH m, r WHERE r.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'embedding', r.embedding)
"""

MEMORY_SUPERSEDED = """
UNWIND $rows AS r
MATCH (old:Memory {memory_id: r.memory_id, user_id: r.user_id})
MATCH (new:Memory {memory_id: r.by_memory_id, user_id: r.user_id})
WITH old, new, r, datetime(r.valid_until) AS until, datetime(r.recorded_at) AS at
SET old.valid_until = until,
    old.superseded_by = r.by_memory_id,
    old.superseded_at = at,
    old.status = CASE old.status WHEN 'forgotten' THEN 'forgotten' ELSE 'superseded' END
REMOVE old:Active:Superseded:Forgotten:Merged:Compressed
SET old:$(toUpper(left(old.status, 1)) + substring(old.status, 1))
WITH old, new, until, at, r
CALL (old, new, at) {
  MATCH (other:Memory)-[earlier:SUPERSEDES]->(old)
  WHERE earlier.replaced_at IS NULL AND other <> new
  SET earlier.replaced_at = at
}
MERGE (new)-[s:SUPERSEDES]->(old)
SET s.at = at, s.valid_until = until, s.replaced_at = null, s.decided_by = r.decided_by, s.reason = r.reason
"""

MEMORY_REINFORCED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET m.confidence = r.confidence,
    m.importance = coalesce(r.importance, m.importance),
    m.reinforced_count = coalesce(m.reinforced_count, 0) + 1,
    m.sources = CASE WHEN r.source IS NULL THEN m.sources
                     ELSE coalesce(m.sources, []) + r.source END,
    m.messages = CASE WHEN size(r.messages) = 0 THEN m.messages
                      ELSE coalesce(m.messages, []) + r.messages END
WITH m, r
CALL (m, r) {
  UNWIND r.message_ids AS message_id
  MATCH (x:Message {message_id: message_id})
  MERGE (m)-[:FROM_MESSAGE]->(x)
}
"""

# A merge keeps the originals, with status merged, linked from the memory that holds them now.
MEMORY_MERGED = """
UNWIND $rows AS r
MATCH (new:Memory {memory_id: r.memory_id, user_id: r.user_id})
UNWIND r.merged_from AS original
MATCH (old:Memory {memory_id: original, user_id: r.user_id})
SET old.status = CASE old.status WHEN 'forgotten' THEN 'forgotten' ELSE 'merged' END,
    old.merged_into = r.memory_id, old.merged_at = datetime(r.recorded_at)
REMOVE old:Active:Superseded:Forgotten:Merged:Compressed
SET old:$(toUpper(left(old.status, 1)) + substring(old.status, 1))
MERGE (new)-[e:MERGED_FROM]->(old)
SET e.at = datetime(r.recorded_at), e.decided_by = r.decided_by, e.reason = r.reason
"""

SESSION_ADVANCED = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
MERGE (s:Session {key: r.key})
SET s += r.props, s.updated_at = datetime(r.recorded_at)
MERGE (u)-[:HAD_SESSION]->(s)
"""

EXTRACTION_DUE = """
UNWIND $rows AS r
MERGE (x:Extraction {extraction_id: r.extraction_id})
SET x += r.props, x.due_since = datetime(r.recorded_at)
WITH x, r
OPTIONAL MATCH (s:Session {key: r.session})
CALL (s, x) { WITH s, x WHERE s IS NOT NULL MERGE (s)-[:EXTRACTION]->(x) }
"""

MEMORIES_EXTRACTED = """
UNWIND $rows AS r
MERGE (x:Extraction {extraction_id: r.extraction_id})
SET x += r.props, x.done_at = datetime(r.recorded_at)
"""

# A summary revised because the person forgot (or restored) something it may say is withheld — its
# words and vector leave — until it is written anew.
SUMMARY_DUE = """
UNWIND $rows AS r
MERGE (s:Summary {summary_id: r.summary_id})
SET s += r.props, s.due_since = datetime(r.recorded_at)
WITH s, r
OPTIONAL MATCH (session:Session {key: r.session})
CALL (session, s) { WITH session, s WHERE session IS NOT NULL MERGE (session)-[:SUMMARY]->(s) }
WITH s, r WHERE r.props.trigger = 'revised'
SET s.summary = null, s.topics = null, s.user_intent = null, s.emotional_tone = null, s.key_facts = null,
    s.unresolved = null, s.content = null, s.content_cjk = null, s.user_key_cjk = null,
    s.words_zh = null,
    s.embedding_model = null, s.name = 'summary (being revised)'
REMOVE s.embedding
"""

# A summary's first answer counts towards the next profile version (domain/state.py); a skipped
# one keeps the words of the summary before it, if there was one.
SESSION_SUMMARIZED = """
UNWIND $rows AS r
MATCH (s:Summary {summary_id: r.summary_id, user_id: r.user_id})
MATCH (u:User {user_id: r.user_id})
WITH s, u, r, CASE WHEN r.counted AND s.status = 'due' THEN 1 ELSE 0 END AS counts
SET u.profile_summaries_since = coalesce(u.profile_summaries_since, 0) + counts,
    u.profile_changes = coalesce(u.profile_changes, 0) + counts
SET s += r.props, s.status = r.status, s.attempts = coalesce(s.attempts, 0) + 1,
    s.summarized_at = datetime(r.recorded_at),
    s.said_until = coalesce(datetime(r.said_until), s.said_until, datetime(r.recorded_at))
WITH s, r
CALL (s, r) {
  WITH s, r WHERE r.made IS NOT NULL
  SET s += r.made
  WITH s, r WHERE r.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(s, 'embedding', r.embedding)
}
CALL (s, r) {
  WITH s, r WHERE r.made IS NOT NULL
  UNWIND r.episodes AS key
  MATCH (ep:Episode {key: key})
  MERGE (s)-[:SUMMARIZES]->(ep)
}
"""

PROFILE_DUE = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
SET u.profile_due = true, u.profile_due_reason = r.reason, u.profile_due_since = datetime(r.recorded_at),
    u.profile_partition = r.props.partition,
    u.profile_withheld = CASE WHEN r.withhold THEN true ELSE u.profile_withheld END
"""

PROFILE_REVISED = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
MERGE (p:Profile {key: r.key})
SET p += r.props, p.revised_at = datetime(r.recorded_at)
SET u.profile_version = r.version, u.profile_due = false, u.profile_due_reason = null,
    u.profile_due_since = null, u.profile_revised_at = datetime(r.recorded_at), u.profile_summaries_since = 0,
    u.profile_withheld = null
MERGE (u)-[:HAS_PROFILE]->(p)
WITH p, r
CALL (p, r) {
  WITH p, r WHERE r.previous IS NOT NULL
  MATCH (before:Profile {key: r.previous})
  MERGE (p)-[:REVISES]->(before)
}
"""

TODO_COMPLETED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET m.completed_at = datetime(r.completed_at)
"""

# A verdict of "helpful" is use too: the memory was cited, and the person says it served them.
FEEDBACK_GIVEN = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
WITH m, r, datetime(r.used_at) AS at, r.verdict = 'helpful' AS used
SET m.access_count = coalesce(m.access_count, 0) + CASE WHEN used THEN 1 ELSE 0 END,
    m.cited_count = coalesce(m.cited_count, 0) + CASE WHEN used THEN 1 ELSE 0 END,
    m.last_used_at = CASE WHEN used AND (m.last_used_at IS NULL OR m.last_used_at < at) THEN at
                          ELSE m.last_used_at END,
    m.last_cited_at = CASE WHEN used AND (m.last_cited_at IS NULL OR m.last_cited_at < at) THEN at
                           ELSE m.last_cited_at END
SET m.confidence = r.confidence,
    m.helpful_count = coalesce(m.helpful_count, 0) + CASE r.verdict WHEN 'helpful' THEN 1 ELSE 0 END,
    m.wrong_count = coalesce(m.wrong_count, 0) + CASE r.verdict WHEN 'wrong' THEN 1 ELSE 0 END,
    m.last_feedback = r.verdict, m.last_feedback_note = r.note,
    m.last_feedback_at = datetime(r.recorded_at)
"""

TODO_REOPENED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET m.completed_at = null, m.reopened_at = datetime(r.recorded_at)
"""

# What Lore believed over time: each forgetting and each restoring is kept (`forgotten_at[i]`
# pairs with `restored_at[i]`), so that "as known in April" sees a memory forgotten in March and
# restored in May as forgotten. `retired_at` is the forgetting in force now, if any.
#
# When the person forgets (not a maintenance run: `run_id` null), the turns its words came from are
# hidden too — its own, and those of the memories merged or compressed into it — listed by what hides
# them (`hidden_by`), so that restoring brings back what this forgetting hid and nothing else.
MEMORY_FORGOTTEN = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET m.status = 'forgotten', m.retired_at = datetime(r.recorded_at), m.forgotten_reason = r.reason,
    m.forgotten_at = coalesce(m.forgotten_at, []) + datetime(r.recorded_at),
    m.forgotten_run = r.run_id, m.relevance = coalesce(r.relevance, m.relevance)
REMOVE m:Active:Superseded:Forgotten:Merged:Compressed
SET m:$(toUpper(left(m.status, 1)) + substring(m.status, 1))
WITH m, r WHERE r.run_id IS NULL
CALL (m) {
  MATCH (m)-[:MERGED_FROM|COMPRESSED_FROM*0..]->(:Memory)-[:FROM_MESSAGE]->(x:Message)
  WITH DISTINCT x, m WHERE NOT m.memory_id IN coalesce(x.hidden_by, [])
  SET x.hidden_by = coalesce(x.hidden_by, []) + m.memory_id
}
"""

# A restored memory comes back from a forgetting, or else from a compression (it is active again;
# the compressed memory that holds its words stays).
MEMORY_RESTORED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
WITH m, r, m.status = 'compressed' AS uncompressed
SET m.compressed_into = CASE WHEN uncompressed THEN null ELSE m.compressed_into END,
    m.compressed_at = CASE WHEN uncompressed THEN null ELSE m.compressed_at END
SET m.status = CASE WHEN m.merged_into IS NOT NULL THEN 'merged'
                    WHEN m.compressed_into IS NOT NULL THEN 'compressed'
                    WHEN m.superseded_by IS NULL THEN 'active' ELSE 'superseded' END,
    m.retired_at = null, m.forgotten_reason = null, m.forgotten_run = null,
    m.restored_at = coalesce(m.restored_at, []) + datetime(r.recorded_at)
REMOVE m:Active:Superseded:Forgotten:Merged:Compressed
SET m:$(toUpper(left(m.status, 1)) + substring(m.status, 1))
WITH m
CALL (m) {
  MATCH (m)-[:MERGED_FROM|COMPRESSED_FROM*0..]->(:Memory)-[:FROM_MESSAGE]->(x:Message)
  WITH DISTINCT x, m WHERE m.memory_id IN coalesce(x.hidden_by, [])
  WITH x, [i IN x.hidden_by WHERE i <> m.memory_id] AS left
  SET x.hidden_by = CASE WHEN size(left) = 0 THEN null ELSE left END
}
"""

# `decayed_for`: the last use the demotion was decided on, so that a memory is demoted once for
# the same evidence, not again each night (domain/lifecycle/maintenance.py).
MEMORY_DECAYED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET m.importance = r.importance, m.relevance = r.relevance, m.decayed_at = datetime(r.recorded_at),
    m.decayed_run = r.run_id, m.decayed_for = datetime(r.last_used_at)
"""

# What callers received: each use counts (`access_count`), a citation also as such, and the latest
# use dates them. Maintenance keeps what is used; the rerank favours, boundedly, what is cited.
MEMORIES_USED = """
UNWIND $rows AS r
UNWIND r.uses AS u
MATCH (m:Memory {memory_id: u.memory_id, user_id: r.user_id})
WITH m, u, datetime(r.used_at) AS at
SET m.access_count = coalesce(m.access_count, 0) + u.count,
    m.cited_count = coalesce(m.cited_count, 0) + u.cited,
    m.last_used_at = CASE WHEN m.last_used_at IS NULL OR m.last_used_at < at THEN at ELSE m.last_used_at END,
    m.last_cited_at = CASE WHEN u.cited > 0 AND (m.last_cited_at IS NULL OR m.last_cited_at < at) THEN at
                           ELSE m.last_cited_at END
"""

# Like a merge: the originals are kept, with status compressed, linked from what holds them now.
MEMORY_COMPRESSED = """
UNWIND $rows AS r
MATCH (new:Memory {memory_id: r.memory_id, user_id: r.user_id})
SET new.compressed_run = r.run_id
WITH new, r
UNWIND r.compressed_from AS original
MATCH (old:Memory {memory_id: original, user_id: r.user_id})
SET old.status = CASE old.status WHEN 'forgotten' THEN 'forgotten' ELSE 'compressed' END,
    old.compressed_into = r.memory_id, old.compressed_at = datetime(r.recorded_at)
REMOVE old:Active:Superseded:Forgotten:Merged:Compressed
SET old:$(toUpper(left(old.status, 1)) + substring(old.status, 1))
MERGE (new)-[e:COMPRESSED_FROM]->(old)
SET e.at = datetime(r.recorded_at), e.run_id = r.run_id, e.compressor = r.compressor
"""

# The words and vectors of a conversation leave; the episode stays as the provenance of what was
# taken from it, marked expired.
EPISODE_EXPIRED = """
UNWIND $rows AS r
MATCH (ep:Episode {key: r.key, user_id: r.user_id})
SET ep.text = null, ep.expired_at = datetime(r.recorded_at), ep.expired_run = r.run_id, ep.status = 'expired'
WITH ep
CALL (ep) {
  MATCH (ep)-[:HAS_MESSAGE]->(x:Message)
  SET x.content = null, x.context = null, x.content_cjk = null, x.words_zh = null, x.name = '(expired)',
      x.expired = true
  REMOVE x.embedding
}
"""

# New vectors (`lore reembed`) for what is still there to read: an expired turn keeps none.
EMBEDDINGS_REPLACED = """
UNWIND $rows AS r
UNWIND r.vectors AS v
CALL (r, v) {
  MATCH (n:Memory {memory_id: v.id}) WHERE v.item = 'memory' AND n.user_id = r.user_id
  RETURN n
  UNION
  MATCH (n:Message {message_id: v.id}) WHERE v.item = 'message' AND n.user_id = r.user_id
  RETURN n
  UNION
  MATCH (n:Summary {summary_id: v.id}) WHERE v.item = 'summary' AND n.user_id = r.user_id
  RETURN n
}
WITH n, r, v WHERE n.content IS NOT NULL
CALL db.create.setNodeVectorProperty(n, 'embedding', v.vector)
SET n.embedding_model = r.model
"""

# A run's report, counted up from each person's part of it.
MAINTENANCE_APPLIED = """
UNWIND $rows AS r
MERGE (run:MaintenanceRun {run_id: r.run_id})
  ON CREATE SET run.as_of = datetime(r.as_of), run.started_at = datetime(r.started_at), run.users = 0,
                run.evaluated = 0, run.forgotten = 0, run.demoted = 0, run.compressed = 0,
                run.contradictions = 0, run.expired = 0, run.name = 'maintenance ' + r.run_id
SET run.users = run.users + 1, run.evaluated = run.evaluated + r.evaluated,
    run.forgotten = run.forgotten + r.forgotten, run.demoted = run.demoted + r.demoted,
    run.compressed = run.compressed + r.compressed,
    run.contradictions = run.contradictions + r.contradictions,
    run.expired = run.expired + r.expired,
    run.finished_at = CASE WHEN run.finished_at IS NULL OR run.finished_at < datetime(r.recorded_at)
                           THEN datetime(r.recorded_at) ELSE run.finished_at END
"""

USER_CONFIGURED = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
SET u.episode_retention_days = r.episode_retention_days, u.pinned_kinds = r.pinned_kinds,
    u.memory = r.memory, u.extraction = r.extraction, u.citations = r.citations, u.temporary = r.temporary,
    u.configured_at = datetime(r.recorded_at)
"""

EPISODE_RECORDED = """
UNWIND $rows AS r
MATCH (u:User {user_id: r.user_id})
MERGE (ep:Episode {key: r.key})
SET ep += r.props, ep.occurred_at = datetime(r.occurred_at), ep.recorded_at = datetime(r.recorded_at),
    ep.expires_at = datetime(r.expires_at)
MERGE (u)-[:HAD]->(ep)
WITH ep, r
CALL (ep, r) {
  UNWIND r.messages AS msg
  MERGE (x:Message {message_id: msg.message_id})
  SET x += msg.props, x.occurred_at = datetime(msg.occurred_at), x.recorded_at = datetime(r.recorded_at)
  MERGE (ep)-[:HAS_MESSAGE]->(x)
  WITH x, msg WHERE msg.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(x, 'embedding', msg.embedding)
}
CALL (ep, r) {
  UNWIND range(1, size(r.messages) - 1) AS i
  MATCH (a:Message {message_id: r.messages[i - 1].message_id})
  MATCH (b:Message {message_id: r.messages[i].message_id})
  MERGE (a)-[:NEXT]->(b)
}
"""

# Erasure is the one write that deletes. The ids of applied commands stay (they hold no
# content), so that a command replayed after an erasure still takes effect only once.
USER_ERASED = """
UNWIND $rows AS r
CALL (r) { MATCH (m:Memory {user_id: r.user_id}) DETACH DELETE m }
CALL (r) { MATCH (e:Entity {user_id: r.user_id}) DETACH DELETE e }
CALL (r) { MATCH (e:Episode {user_id: r.user_id}) DETACH DELETE e }
CALL (r) { MATCH (x:Message {user_id: r.user_id}) DETACH DELETE x }
CALL (r) { MATCH (s:Session {user_id: r.user_id}) DETACH DELETE s }
CALL (r) { MATCH (x:Extraction {user_id: r.user_id}) DETACH DELETE x }
CALL (r) { MATCH (x:Summary {user_id: r.user_id}) DETACH DELETE x }
CALL (r) { MATCH (x:Profile {user_id: r.user_id}) DETACH DELETE x }
CALL (r) { MATCH (u:User {user_id: r.user_id}) DETACH DELETE u }
CALL (r) {
  MATCH (a:AppliedCommand {user_id: r.user_id}) WHERE a.key <> r.command_key
  SET a.outcome = 'erased', a.command_id = null, a.code = null, a.reason = null, a.memory_id = null
}
CALL (r) {
  UNWIND r.command_keys AS key
  MERGE (a:AppliedCommand {key: key})
    ON CREATE SET a.user_id = r.user_id, a.outcome = 'erased'
}
"""

# A purge: the memories go, and the turns they came from keep no words (the keys of those words are
# destroyed: the log reads placeholders where they were). The projector has made the person's part
# anew from the log before this runs (projector.py, _reproject).
MEMORY_PURGED = """
UNWIND $rows AS r
CALL (r) {
  UNWIND r.memory_ids AS id
  MATCH (m:Memory {memory_id: id, user_id: r.user_id})
  DETACH DELETE m
}
CALL (r) {
  UNWIND r.message_ids AS id
  MATCH (x:Message {message_id: id, user_id: r.user_id})
  SET x.content = null, x.context = null, x.content_cjk = null, x.words_zh = null, x.user_key_cjk = null,
      x.name = '(purged)',
      x.purged = true, x.hidden_by = null, x.embedding_model = null
  REMOVE x.embedding
}
"""

# The turns a forgotten topic named are hidden by it (a purged topic's turns are emptied instead).
TOPIC_FORGOTTEN = """
UNWIND $rows AS r
UNWIND r.message_ids AS id
MATCH (x:Message {message_id: id, user_id: r.user_id})
WITH x, r WHERE NOT r.topic_id IN coalesce(x.hidden_by, [])
SET x.hidden_by = coalesce(x.hidden_by, []) + r.topic_id
"""

# Everything of one person's that the projection made, to be made again from their entries.
PERSON_DELETED = """
MATCH (n {user_id: $user_id})
WHERE any(label IN labels(n) WHERE label IN ['Memory', 'Entity', 'Episode', 'Message', 'Session',
                                             'Extraction', 'Summary', 'Profile', 'User', 'AppliedCommand'])
DETACH DELETE n
"""

READ_CHECKPOINTS = """
UNWIND $keys AS key
OPTIONAL MATCH (c:Checkpoint {key: key})
RETURN key, c.position AS position
"""

WRITE_CHECKPOINTS = """
UNWIND $rows AS r
MERGE (c:Checkpoint {key: r.key})
SET c.projection = r.projection, c.partition = r.partition, c.shard = r.shard,
    c.position = r.position, c.log = r.log, c.version = r.version,
    c.recorded_at = CASE WHEN c.recorded_at IS NULL OR c.recorded_at < datetime(r.recorded_at)
                         THEN datetime(r.recorded_at) ELSE c.recorded_at END
"""

ALL_CHECKPOINTS = """
MATCH (c:Checkpoint {projection: $projection})
RETURN c.partition AS partition, c.shard AS shard, c.position AS position, c.log AS log,
       c.version AS version, c.recorded_at AS recorded_at
"""

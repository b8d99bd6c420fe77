"""The projection's writes: one parameterised UNWIND statement per event type."""

from __future__ import annotations

MEMORY_RECORDED = """
UNWIND $rows AS r
MERGE (u:User {user_id: r.user_id})
  ON CREATE SET u.name = r.user_id
MERGE (m:Memory {memory_id: r.memory_id})
SET m += r.props, m:$(r.label)
MERGE (u)-[:REMEMBERS]->(m)
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
FOREACH (e IN r.entities |
  MERGE (en:Entity {entity_id: e.entity_id})
    ON CREATE SET en.user_id = r.user_id, en.name = e.name, en.type = 'thing'
  MERGE (m)-[:ABOUT]->(en))
FOREACH (episode_id IN r.episodes |
  MERGE (ep:Episode {episode_id: episode_id}) ON CREATE SET ep.user_id = r.user_id
  MERGE (m)-[:EXTRACTED_FROM]->(ep))
WITH m, r WHERE r.embedding IS NOT NULL
CALL db.create.setNodeVectorProperty(m, 'embedding', r.embedding)
"""

MEMORY_SUPERSEDED = """
UNWIND $rows AS r
MATCH (old:Memory {memory_id: r.memory_id})
MATCH (new:Memory {memory_id: r.by_memory_id})
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
SET old.valid_until = r.valid_until,
    old.superseded_by = r.by_memory_id,
    old.superseded_at = r.recorded_at,
    old.status = CASE old.status WHEN 'forgotten' THEN 'forgotten' ELSE 'superseded' END
WITH old, new, r
CALL (old, new, r) {
  MATCH (other:Memory)-[earlier:SUPERSEDES]->(old)
  WHERE earlier.replaced_at IS NULL AND other <> new
  SET earlier.replaced_at = r.recorded_at
}
MERGE (new)-[s:SUPERSEDES]->(old)
SET s.at = r.recorded_at, s.valid_until = r.valid_until, s.replaced_at = null
"""

MEMORY_REINFORCED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id})
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
SET m.confidence = r.confidence,
    m.reinforced_count = coalesce(m.reinforced_count, 0) + 1,
    m.sources = CASE WHEN r.source IS NULL THEN m.sources
                     ELSE coalesce(m.sources, []) + r.source END
"""

MEMORY_FORGOTTEN = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id})
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
SET m.status = 'forgotten', m.retired_at = r.recorded_at, m.forgotten_reason = r.reason
"""

MEMORY_RESTORED = """
UNWIND $rows AS r
MATCH (m:Memory {memory_id: r.memory_id})
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
SET m.status = CASE WHEN m.superseded_by IS NULL THEN 'active' ELSE 'superseded' END,
    m.retired_at = null, m.forgotten_reason = null
"""

EPISODE_RECORDED = """
UNWIND $rows AS r
MERGE (u:User {user_id: r.user_id})
  ON CREATE SET u.name = r.user_id
MERGE (ep:Episode {episode_id: r.episode_id})
SET ep += r.props
MERGE (u)-[:HAD]->(ep)
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
"""

# Erasure is the one write that deletes. The ids of applied commands stay (they hold no
# content), so that a command replayed after an erasure still takes effect only once.
USER_ERASED = """
UNWIND $rows AS r
CALL (r) { MATCH (m:Memory {user_id: r.user_id}) DETACH DELETE m }
CALL (r) { MATCH (e:Entity {user_id: r.user_id}) DETACH DELETE e }
CALL (r) { MATCH (e:Episode {user_id: r.user_id}) DETACH DELETE e }
CALL (r) { MATCH (u:User {user_id: r.user_id}) DETACH DELETE u }
MERGE (c:AppliedCommand {command_id: r.command_id}) ON CREATE SET c.user_id = r.user_id
"""

READ_CHECKPOINTS = """
UNWIND $keys AS key
OPTIONAL MATCH (c:Checkpoint {key: key})
RETURN key, c.position AS position
"""

WRITE_CHECKPOINTS = """
UNWIND $rows AS r
MERGE (c:Checkpoint {key: r.key})
SET c.projection = r.projection, c.partition = r.partition, c.position = r.position
"""

ALL_CHECKPOINTS = """
MATCH (c:Checkpoint {projection: $projection})
RETURN c.partition AS partition, c.position AS position
"""

"""What `lore reembed` reads and changes: the items whose vectors are not yet the new model's,
and the vector indexes, made again when the new model's vectors are of another size."""

from __future__ import annotations

from dataclasses import dataclass

from projections.graph.schema import drop_vector_indexes, ensure_schema, vector_dimensions
from projections.reads import GraphQueries

# What each kind of item embeds: the text its vector was made of when it was recorded.
_PENDING = """
CALL () {
  MATCH (n:Memory) WHERE ($user_id IS NULL OR n.user_id = $user_id)
    AND n.content IS NOT NULL AND coalesce(n.embedding_model, '') <> $model
  RETURN n.user_id AS user_id, 'memory' AS item, n.memory_id AS id, n.content AS text
  UNION ALL
  MATCH (n:Message) WHERE ($user_id IS NULL OR n.user_id = $user_id)
    AND n.content IS NOT NULL AND coalesce(n.embedding_model, '') <> $model
  RETURN n.user_id AS user_id, 'message' AS item, n.message_id AS id, n.content AS text
  UNION ALL
  MATCH (n:Summary) WHERE ($user_id IS NULL OR n.user_id = $user_id)
    AND n.content IS NOT NULL AND coalesce(n.embedding_model, '') <> $model
  RETURN n.user_id AS user_id, 'summary' AS item, n.summary_id AS id, n.content AS text
}
"""


@dataclass(frozen=True)
class Pending:
    """An item whose vector is not the new model's, and the text to embed."""

    item: str
    item_id: str
    text: str


class ReembedQueries(GraphQueries):
    def remaining(self, model: str, user_id: str | None = None) -> int:
        return int(self._run(_PENDING + "RETURN count(*) AS n", model=model, user_id=user_id)[0]["n"])

    def people(self, model: str, user_id: str | None = None) -> list[str]:
        """Everyone with an item not yet of `model`, in order."""
        records = self._run(_PENDING + "RETURN DISTINCT user_id ORDER BY user_id", model=model,
                            user_id=user_id)
        return [r["user_id"] for r in records]

    def pending(self, user_id: str, model: str, limit: int) -> list[Pending]:
        records = self._run(_PENDING + "RETURN item, id, text ORDER BY item, id LIMIT $limit",
                            model=model, user_id=user_id, limit=limit)
        return [Pending(r["item"], r["id"], r["text"]) for r in records]

    def index_dimensions(self) -> int | None:
        return vector_dimensions(self.driver, self.database)

    def drop_vector_indexes(self) -> None:
        drop_vector_indexes(self.driver, self.database)

    def make_vector_indexes(self, dimensions: int) -> None:
        ensure_schema(self.driver, dimensions, self.database)

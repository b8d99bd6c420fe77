"""The graph split across several Neo4j instances (LORE_NEO4J_SHARDS): one Lore per shard, and
the shard of each person. The API answers every person from their own shard; what concerns no
one person (health, maintenance, metrics) asks every shard."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from infra.eventlog.shards import shard_of
from infra.settings import Settings
from projections.outcomes import CommandOutcome
from services.bootstrap import Lore, bootstrap


@dataclass
class GraphShards:
    lores: list[Lore]
    partitions: int = 0  # of lore.commands and lore.events; set once the topics are known

    def __iter__(self) -> Iterator[Lore]:
        return iter(self.lores)

    def __len__(self) -> int:
        return len(self.lores)

    @property
    def home(self) -> Lore:
        """Shard 0: its settings and keys serve the whole process."""
        return self.lores[0]

    def index_of(self, user_id: str) -> int:
        if len(self.lores) == 1:
            return 0
        if not self.partitions:
            raise RuntimeError("the shards' partitions are not known yet: the topics were not prepared")
        return shard_of(user_id, self.partitions, len(self.lores))

    def of(self, user_id: str) -> Lore:
        """The Lore of `user_id`'s shard (as Lore keeps them: tenant-qualified)."""
        return self.lores[self.index_of(user_id)]

    def outcome(self, user_id: str, command_id: str) -> CommandOutcome | None:
        """What became of a command, asked once of its person's shard (raises while it is away)."""
        return self.of(user_id).outcomes.outcome_now(user_id, command_id)

    def close(self) -> None:
        for lore in self.lores:
            lore.close()


def person_settings(settings: Settings, user_id: str) -> Settings:
    """Settings pointed at the Neo4j that holds `user_id` (the only one without shards)."""
    if len(settings.neo4j_shards) <= 1:
        return settings.for_shard(0)
    from infra.eventlog.kafka import topic_partitions

    assert settings.kafka_bootstrap
    partitions = topic_partitions(settings.kafka_access, settings.events_topic)
    return settings.for_shard(shard_of(user_id, partitions, len(settings.neo4j_shards)))


def open_shards(make_home: Callable[[], Lore] | None = None) -> GraphShards:
    """Shard 0's Lore (made by `make_home`, or from the settings), and one like it for each
    other shard, sharing its embedder."""
    home = make_home() if make_home is not None else bootstrap(Settings().for_shard(0))
    settings = home.settings
    others = []
    try:
        for shard in range(1, len(settings.neo4j_shards)):
            others.append(bootstrap(settings.for_shard(shard), embedder=home.embedder))
    except BaseException:
        for lore in [home, *others]:
            lore.close()
        raise
    return GraphShards([home, *others])


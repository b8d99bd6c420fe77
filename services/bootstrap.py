"""The one place that wires Lore: settings → driver, event log, embedder, projector, handler.

The only module of the application layer that sees the Neo4j driver: everything else reaches
the graph through the objects made here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from neo4j import Driver, GraphDatabase

from domain.commands import Command
from domain.extraction.policy import ExtractionPolicy
from domain.sealing import Sealer
from infra.embedding import Embedder, open_embedder, setting_for
from infra.embedding.cached import CachedEmbedder
from infra.embedding.watched import WatchedEmbedder
from infra.eventlog import EventLog, open_event_log
from infra.keys import KeyStore, open_key_store
from infra.llm import LLM, open_llm
from infra.settings import Settings
from infra.tokens import token_counter
from projections.export import ExportQueries
from projections.extraction import ExtractionQueries
from projections.graph import GraphProjector, ensure_schema
from projections.graph.decision_state import GraphDecisionReads
from projections.graph.projector import EmbedderChanged, LanguageChanged
from projections.graph.schema import holds_vectors_of, other_embedding_models, store_language
from projections.jobs import JobQueries
from projections.layers import LayerQueries
from projections.maintenance import MaintenanceQueries
from projections.outcomes import OutcomeQueries
from projections.reembedding import ReembedQueries
from projections.search import CandidateQueries
from projections.temporal import TemporalQueries
from services.commands import CommandHandler
from services.context import ContextBuilder
from services.extraction.extractors import Extractor, LLMExtractor, RulesExtractor
from services.extraction.llm_consolidator import LLMConsolidator
from services.extraction.process import ExtractionProcess
from services.layers.process import LayersProcess
from services.layers.writers import LLMProfileWriter, LLMSummarizer, OfflineProfileWriter, OfflineSummarizer
from services.lifecycle.compress import LLMCompressor
from services.lifecycle.maintenance import MaintenanceService
from services.lifecycle.reminders import ReminderRelay
from services.lifecycle.scheduler import LifecycleScheduler
from services.outbox import CommandOutbox
from services.questions import LLMQuestions, OfflineExpansion, QuestionSynthesizer
from services.reembed import ReembedService
from services.search import SearchService, source_weights
from services.usage import UseRecorder

log = logging.getLogger(__name__)


@dataclass(kw_only=True)
class Lore:
    settings: Settings
    driver: Driver
    event_log: EventLog
    embedder: Embedder | None
    projector: GraphProjector
    commands: CommandHandler
    search: SearchService
    outbox: CommandOutbox
    use: UseRecorder
    queries: TemporalQueries
    outcomes: OutcomeQueries
    extractions: ExtractionQueries
    layer_queries: LayerQueries
    context: ContextBuilder
    exports: ExportQueries
    maintenance_queries: MaintenanceQueries
    extraction: ExtractionProcess | None = None
    layers: LayersProcess | None = None
    keys: KeyStore | None = None  # people's keys; None when encryption is off
    jobs: JobQueries | None = None  # the records of runs the API started (services/runs.py)
    _closed: bool = field(default=False, init=False)

    @property
    def job_records(self) -> JobQueries:
        """The records of runs the API started on this graph (services/runs.py)."""
        if self.jobs is None:
            self.jobs = JobQueries(self.driver, self.settings.neo4j_database)
        return self.jobs

    @property
    def sealer(self) -> Sealer | None:
        """Seals what this process publishes to lore.commands and the dead-letter topic with the
        person's key; None when encryption is off."""
        return self.outbox.sealer

    def start_extraction(self, kafka_worker: bool = False) -> None:
        """Answer extractions due and write the summaries and profiles due, in the background. A
        Kafka worker answers those of the partitions it is assigned (none until it is); the
        embedded mode answers all."""
        handler = self.commands
        for process in (self.extraction, self.layers):
            if process is None:
                continue
            if kafka_worker:
                process.partitions = lambda: handler.partitions() or frozenset()
            process.start()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self.extraction is not None:
                self.extraction.stop()
            if self.layers is not None:
                self.layers.stop()
            self.use.close()
            self.search.close()
            self.projector.close()
            self.event_log.close()
            if self.keys is not None:
                self.keys.close()
            self.outbox.close()
            self.driver.close()


# An idle connection older than this is checked with a round trip before it is used: a Neo4j
# that froze with connections open is then known within the acquisition timeout, not never.
_CHECK_IDLE_AFTER_S = 2.0


def neo4j_driver(settings: Settings) -> Driver:
    """A driver that knows a Neo4j that is away within seconds and survives its store being
    replaced (README, "When Neo4j goes away")."""
    auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
    retry_s, connect_s = settings.neo4j_retry_s, settings.neo4j_connect_timeout_s
    driver = GraphDatabase.driver(
        settings.neo4j_uri, auth=auth,
        # Neo4j's notifications (e.g. "property key does not exist" on an empty graph) are noise here.
        notifications_min_severity="OFF",
        # The driver's defaults wait 30 s to connect, 60 s for a connection and retry for 30 s: a
        # read of a shard that is down took half a minute to fail, of one that froze, forever.
        connection_timeout=connect_s,
        connection_acquisition_timeout=max(settings.neo4j_acquire_timeout_s, connect_s),
        liveness_check_timeout=_CHECK_IDLE_AFTER_S,
        max_transaction_retry_time=retry_s, initial_retry_delay=min(1.0, retry_s / 4))
    forget_bookmarks(driver)
    return driver


def forget_bookmarks(driver: Driver) -> None:
    """Stop `execute_query` from chaining every call after the bookmark of the last one.

    The driver keeps those bookmarks for its whole life, and they name transaction ids of the
    store it saw. A store replaced under a running process (`lore rebuild --bulk`, a restored
    backup) is behind them: every query then waited for a transaction that never comes, and
    failed, until the process was restarted. Each Lore talks to one Neo4j server per shard,
    where a committed transaction is seen by every later one, so the chain bought nothing (the
    projector's sessions never took part in it)."""
    if not hasattr(driver, "_query_bookmark_manager"):  # guarded by tests/unit/test_graph_away.py
        raise RuntimeError("this neo4j driver keeps execute_query's bookmarks elsewhere")
    driver._query_bookmark_manager = None  # type: ignore[assignment]


_FROM_SETTINGS: Any = object()


def bootstrap(settings: Settings | None = None, *, embedder: Embedder | None = _FROM_SETTINGS) -> Lore:
    """Wire everything. Talks to no server but the event log: the schema is made on first use.

    `embedder` replaces the one the settings name (a benchmark's cache, say).
    """
    settings = settings or Settings()
    if len(settings.neo4j_shards) > 1 and settings.neo4j_uri not in settings.neo4j_shards:
        raise ValueError(
            f"LORE_NEO4J_SHARDS splits the graph across {len(settings.neo4j_shards)} Neo4j instances, "
            "and this command works on one: name it (--shard I where the command takes it; README, "
            "Scaling), or point LORE_NEO4J_URI at one of them")
    database = settings.neo4j_database
    driver = neo4j_driver(settings)
    if embedder is _FROM_SETTINGS:
        embedder = _watched_embedder(settings)
    keys = open_key_store(settings)
    event_log = open_event_log(settings, keys)
    projector = GraphProjector(driver, database, log_id=event_log.log_id, history=event_log.history)

    def schema() -> None:
        refuse_other_language(driver, settings.language, database)
        ensure_schema(driver, embedder.dimensions if embedder else None, database, settings.language)
        if embedder is not None:
            refuse_other_models(driver, embedder.model, database)

    policy = extraction_policy(settings)
    handler = CommandHandler(GraphDecisionReads(driver, database), event_log, projector, embedder,
                             ensure_schema=schema, max_entry_bytes=settings.max_entry_bytes,
                             cached_people=settings.state_cache_people, policy=policy)
    search = SearchService(CandidateQueries(driver, database, language=settings.language), embedder,
                           embed_timeout_s=settings.embedding_timeout_s,
                           weights=source_weights(settings.language))
    outcomes = OutcomeQueries(driver, database)
    outbox = CommandOutbox(settings, handler, outcomes, Sealer(keys) if keys is not None else None)
    extractions = ExtractionQueries(driver, database)
    layer_queries = LayerQueries(driver, database)
    queries = TemporalQueries(driver, database)
    context = ContextBuilder(queries, layer_queries, search, token_counter(), settings.context_always,
                             open_questions(settings), language=settings.language)
    return Lore(settings=settings, driver=driver, event_log=event_log, embedder=embedder, projector=projector,
                commands=handler, search=search, outbox=outbox, use=UseRecorder(outbox.send), queries=queries,
                outcomes=outcomes, extractions=extractions, layer_queries=layer_queries, context=context,
                exports=ExportQueries(driver, database),
                maintenance_queries=MaintenanceQueries(driver, database),
                extraction=open_extraction(settings, extractions, handler, embedder, policy),
                layers=open_layers(settings, layer_queries, handler), keys=keys,
                jobs=JobQueries(driver, database))


def _watched_embedder(settings: Settings) -> Embedder | None:
    """The settings' embedder, cached (a candidate is embedded to find its neighbours, then as a
    memory) and watched (/v1/health says when the model fails, and a write answers 503 for it)."""
    embedder = open_embedder(settings)
    return None if embedder is None else WatchedEmbedder(CachedEmbedder(embedder))


def open_extraction(settings: Settings, reads: ExtractionQueries, handler: CommandHandler,
                    embedder: Embedder | None, policy: ExtractionPolicy) -> ExtractionProcess | None:
    """The process that answers extractions due, with the extractor the settings name."""
    extractor = open_extractor(settings)
    if extractor is None:
        return None
    # A model that extracts also judges consolidation; the rules judge what the rules extract.
    consolidator = LLMConsolidator(extractor.llm) if isinstance(extractor, LLMExtractor) else None
    return ExtractionProcess(
        reads, handler, extractor, embedder, policy, consolidator=consolidator,
        tokens_per_person_per_day=settings.llm_tokens_per_person_per_day,
        tokens_per_day=settings.llm_tokens_per_day, poll_s=settings.extraction_poll_s,
        extractor_for=lambda model: named_model(settings, model))


def model_for(settings: Settings, setting: str) -> LLM | None:
    """The model a job uses when its setting (`LORE_<SETTING>`: auto, llm, or an offline choice)
    asks for one: `llm` needs an endpoint and says so; `auto` takes one when configured."""
    choice = getattr(settings, setting)
    llm = open_llm(settings) if choice in ("auto", "llm") else None
    if choice == "llm" and llm is None:
        raise ValueError(f"LORE_{setting.upper()}=llm needs a model: set LORE_LLM=openai and "
                         "LORE_LLM_BASE_URL")
    return llm


def refuse_other_models(driver: Driver, model: str, database: str) -> None:
    """Raise EmbedderChanged when the graph holds vectors another model made and none of this
    one's. A store part way through `lore reembed` holds both: a process on either model may
    write there (searches compare vectors of one model only), so that workers restarted during
    the move, on the old model or the new, keep applying its commands."""
    others = other_embedding_models(driver, model, database)
    if others and holds_vectors_of(driver, model, database):
        log.warning("the graph still holds vectors of %s beside %s's: `lore reembed --model` moves "
                    "the rest (searches meanwhile compare vectors of %s only)",
                    ", ".join(others), model, model)
    elif others:
        back = " or ".join(setting_for(m) for m in others)
        raise EmbedderChanged(
            f"the graph holds vectors made by {', '.join(others)}, and LORE_EMBEDDER gives {model}: "
            "vectors of two models cannot be compared, so Lore writes none beside them. Move the "
            f"store to the new model with `lore reembed --model {setting_for(model)}` (resumable; "
            f"README, Embedders), or set LORE_EMBEDDER back to {back}, the model that made them (then "
            "`lore dlq replay --code embedder_changed` for commands refused meanwhile)")


def refuse_other_language(driver: Driver, language: str, database: str) -> None:
    """Raise LanguageChanged when the store reads text in another language than `language`."""
    found = store_language(driver, database)
    if found is not None and found != language:
        raise LanguageChanged(
            f"the store reads text in {_LANGUAGE_NAMES.get(found, found)} ({found}), and LORE_LANGUAGE "
            f"gives {language}: a store's memories, summaries and word indexes are in one language, so "
            f"Lore writes nothing in another. Set LORE_LANGUAGE={found} back, or move the store with "
            f"`lore language {language}` (then `lore dlq replay --code language_changed` for commands "
            "refused meanwhile; README, Chinese)")


_LANGUAGE_NAMES = {"en": "English", "zh": "Chinese"}


def open_questions(settings: Settings) -> QuestionSynthesizer | None:
    """What synthesizes the questions a search asks beside a message (None: none)."""
    if settings.questions == "off":
        return None
    llm = model_for(settings, "questions")
    return LLMQuestions(llm) if llm is not None else OfflineExpansion()


def open_layers(settings: Settings, reads: LayerQueries, handler: CommandHandler) -> LayersProcess | None:
    """The process that writes summaries and profiles, with the writers the settings name."""
    if settings.layers == "off":
        return None
    llm = model_for(settings, "layers")
    summarizer = (LLMSummarizer(llm, settings.llm_context_tokens, settings.llm_max_answer_tokens,
                                settings.language)
                  if llm is not None else OfflineSummarizer(settings.language))
    writer = (LLMProfileWriter(llm, settings.language) if llm is not None
              else OfflineProfileWriter(settings.language))
    return LayersProcess(reads, handler, summarizer, writer, retry_s=settings.summary_retry_s,
                         poll_s=settings.extraction_poll_s)


def extraction_policy(settings: Settings) -> ExtractionPolicy:
    return ExtractionPolicy(every_turns=settings.extract_every_turns, window=settings.extract_window,
                            min_messages=settings.extract_min_messages,
                            similar_cosine=settings.similar_cosine, taxonomy=settings.taxonomy,
                            episode_retention_days=settings.episode_retention_days)


def lifecycle_scheduler(lore: Lore) -> LifecycleScheduler:
    """Maintenance on its cron and the reminders, as `lore serve` runs them."""
    from infra.reminders import KafkaReminderOutbox, SqliteReminderOutbox, WebhookSender
    from projections.reminders import ReminderQueries

    settings = lore.settings
    relay = None
    if settings.reminders == "on" and (settings.uses_kafka_log or settings.reminder_webhook):
        outbox: KafkaReminderOutbox | SqliteReminderOutbox
        if settings.uses_kafka_log:
            assert settings.kafka_bootstrap is not None
            outbox = KafkaReminderOutbox(settings.kafka_access, settings.reminders_topic,
                                         retention_days=settings.reminder_catch_up_days + 7)
        else:
            outbox = SqliteReminderOutbox(settings.home / "reminders.sqlite3")
        webhook = WebhookSender(settings.reminder_webhook) if settings.reminder_webhook else None
        relay = ReminderRelay(ReminderQueries(lore.driver, settings.neo4j_database), lore.maintenance_queries,
                              outbox, webhook, catch_up=timedelta(days=settings.reminder_catch_up_days),
                              lease_for=timedelta(seconds=max(15.0, 3 * settings.reminder_poll_s)),
                              ready=lore.commands.ensure_schema)
    return LifecycleScheduler(maintenance_service(lore), settings.maintenance_cron, relay,
                              settings.reminder_poll_s)


def command_sender(lore: Lore) -> Callable[[Sequence[Command]], None]:
    """Sends commands the way this deployment writes, and returns once they took effect: to this
    process's handler (embedded), or onto lore.commands for the workers (Kafka)."""
    return lore.outbox.send_and_wait


def reembed_service(lore: Lore, embedder: Embedder) -> ReembedService:
    """Moves the store's vectors to `embedder`'s model (services/reembed.py)."""
    return ReembedService(ReembedQueries(lore.driver, lore.settings.neo4j_database), embedder,
                          command_sender(lore))


def maintenance_service(lore: Lore) -> MaintenanceService:
    """Maintenance that sends its commands the way this deployment writes (command_sender)."""
    settings = lore.settings
    send = command_sender(lore)
    llm = model_for(settings, "compressor")
    compressor = LLMCompressor(llm) if llm is not None else None
    return MaintenanceService(lore.maintenance_queries, send, compressor, ready=lore.commands.ensure_schema)


def open_extractor(settings: Settings) -> Extractor | None:
    """The extractor the settings name (None: extraction is off)."""
    if settings.extractor == "off":
        return None
    llm = model_for(settings, "extractor")
    return (LLMExtractor(llm, settings.llm_context_tokens, settings.llm_max_answer_tokens, settings.taxonomy)
            if llm is not None else RulesExtractor(language=settings.language))


def named_model(settings: Settings, model: str) -> Extractor | None:
    """The extractor of another model of the configured endpoint (None: no endpoint is)."""
    llm = open_llm(settings.model_copy(update={"llm_model": model}))
    if llm is None:
        return None
    return LLMExtractor(llm, settings.llm_context_tokens, settings.llm_max_answer_tokens, settings.taxonomy)

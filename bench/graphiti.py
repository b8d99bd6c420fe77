"""Lore next to Graphiti (getzep/graphiti, PyPI `graphiti-core`): the same facts, the same Neo4j, the
same embedder; search latency and recall@10 of planted answers, at several sizes, in one run.

    pip install graphiti-core==0.31.1                      # beside Lore's pins (see bench/README.md)
    python -m bench.graphiti                               # 10,000, 100,000 and 1,000,000 facts
    python -m bench.graphiti --sizes 2000 --queries 20 --distinct 500   # smoke, 1-2 minutes

Each size holds people of --per-person facts and one person with --big facts (at most half the
size). Among everyone's everyday notes, each query has one planted fact that answers it ("My friend
Ada moved to Osaka last year ..." for "where does Ada live now?"); recall@10 is the share of queries
whose planted fact is in the top 10. Half the queries are asked of ordinary people, half of the big
one, and each search is scoped to the person asked of (Lore's user_id, Graphiti's group_id).

Lore's memories are MemoryRecorded events projected straight into Neo4j (as bench.latency does);
Graphiti's facts are its own schema, saved with its own bulk writer, no LLM: one EntityEdge
(RELATES_TO with `fact`, `fact_embedding`, `valid_at`, group_id = the person) per fact between
EntityNodes for the things the fact names, and its indices from build_indices_and_constraints().
Both get the same vectors: the local model's (all-MiniLM-L6-v2 int8), --distinct everyday texts
embedded once and reused with a little noise (as bench.latency does), planted facts embedded
exactly. Queries are embedded at search time by the same model on both sides (Graphiti through an
EmbedderClient that wraps it).

Timed, one query at a time, each system's two searches taking turns: Lore's SearchService in this
process and over HTTP (a `lore serve` subprocess), Graphiti's `search()` (recipe
EDGE_HYBRID_SEARCH_RRF, what it runs by default) and `search_()` with COMBINED_HYBRID_SEARCH_RRF.
Ratios are against Lore in process (like Graphiti's, a library call in this process). Graphiti's
other recipes need a cross-encoder or an LLM (or a centre node); its LLM and cross-encoder here are
stubs that raise if called. (Lore over HTTP caches query vectors; the other three do not.)
Both schemas use the label `Entity` (and Lore's wipe deletes every `Entity`), so each size runs in
two phases on the same server with a wipe between: Lore's load and searches, then Graphiti's.
Runs on a Neo4j of its own (bench/stack.py; for 1,000,000 facts give it LORE_NEO4J_PAGECACHE=4g or
more), or on --neo4j-uri, which it wipes, indexes included. The `lore serve` it starts runs on the
store's model (LORE_EMBEDDER=local), and a search answer that says it left a source out stops the
run. Notes and results: bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from bench import stack
from bench.core import chunks
from bench.latency import serve
from domain.events import Embedding, MemoryRecorded
from domain.model import MemoryKind, derived_id
from domain.stored import StoredEvent
from infra.embedding import open_embedder
from infra.embedding.local import LocalMiniLM
from infra.settings import Settings
from projections.graph import ensure_schema
from projections.search import Window
from services.bootstrap import bootstrap

GRAPHITI_VERSION = "0.31.1"  # 0.31.2 asks for a certifi newer than any on PyPI
EMBEDDER = "local"  # LORE_EMBEDDER of LocalMiniLM, the model both systems get
console = Console(width=160)
START = datetime(2023, 1, 1, tzinfo=UTC)
Named = tuple[str, ...]  # the things a fact names, in order

# What facts are made of. The placeholders in ENTITY_FIELDS name things (people, places, ...): they
# become Lore's entities and the EntityNodes Graphiti's edges join.
FILL = {
    "name": ["Ada", "Grace", "Linus", "Margaret", "Alan", "Barbara", "Ken", "Frances", "Edsger", "Radia",
             "Tomás", "Amara", "Yuki", "Priya", "Olu", "Sven", "Mei", "Diego", "Fatima", "Noah",
             "Ingrid", "Kofi", "Lucía", "Hiro", "Zoe", "Omar", "Elena", "Ravi", "Chloe", "Mateo"],
    "place": ["Lisbon", "Berlin", "Osaka", "Toronto", "Nairobi", "Oslo", "Lima", "Hanoi", "Austin", "Porto",
              "Dublin", "Seville", "Krakow", "Montreal", "Cape Town", "Melbourne", "Bologna", "Quito"],
    "region": ["the Dolomites", "the Lake District", "Patagonia", "the Alps", "the Highlands", "Yosemite",
               "the Pyrenees", "Snowdonia"],
    "topic": ["climbing", "jazz", "sourdough", "chess", "gardening", "photography", "running", "Spanish",
              "woodworking", "sailing", "astronomy", "pottery", "cycling", "knitting", "birdwatching"],
    "food": ["ramen", "tacos", "falafel", "kimchi", "a mushroom risotto", "dumplings", "a Greek salad",
             "pho", "a lentil curry", "fish and chips"],
    "drink": ["green tea", "espresso", "oat milk lattes", "ginger beer", "hot chocolate", "sparkling water"],
    "item": ["hiking boots", "a camera lens", "a rain jacket", "running shoes", "a cast-iron pan"],
    "weekday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "month": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"],
    "job": ["nurse", "architect", "data analyst", "primary school teacher", "paramedic", "translator"],
    "allergen": ["peanuts", "shellfish", "penicillin", "cat hair", "sesame"],
    "surname": ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Kowalski", "Brennan"],
    "street": ["Elm Street", "Harbour Road", "Mill Lane", "Station Road", "Church Street"],
    "cuisine": ["Vietnamese", "Georgian", "Peruvian", "Sicilian", "Ethiopian", "Korean"],
    "color": ["blue", "silver", "dark green", "red", "white"],
    "car": ["Skoda Octavia", "Toyota Yaris", "Volvo estate", "Renault Zoe", "Mazda 3"],
    "pet": ["Biscuit", "Pepper", "Mochi", "Rufus", "Luna"],
    "breed": ["beagle", "border collie", "dachshund", "greyhound", "spaniel"],
    "instrument": ["piano", "violin", "cello", "guitar", "flute"],
    "book": ["The Left Hand of Darkness", "Middlemarch", "A Gentleman in Moscow", "Piranesi", "Stoner"],
    "language": ["Japanese", "Portuguese", "Italian", "Swahili", "Korean", "German"],
    "flower": ["peonies", "tulips", "sunflowers", "freesias", "ranunculus"],
    "blood": ["O negative", "A positive", "B positive", "AB negative"],
    "band": ["Radiohead", "Khruangbin", "Fleetwood Mac", "Portishead", "Bonobo"],
    "school": ["Riverside Primary", "St Anne's", "Hillcrest Academy", "Northfield School"],
    "day": [str(d) for d in range(1, 29)],
    "year": ["2027", "2028", "2029", "2030"],
    "n": ["3", "4", "5", "6"],
}
ENTITY_FIELDS = ("name", "place", "region", "topic", "language", "book", "band", "school", "pet")

# Planted facts: the fact, the question it answers, Graphiti's relation name. Within one person a
# question is asked once, so exactly one of their facts answers it.
PLANTS = [
    ("My friend {name} moved to {place} last year for a new job", "where does {name} live now?",
     "LIVES_IN"),
    ("{name}'s birthday is on {day} {month}, and they love anything to do with {topic}",
     "when is {name}'s birthday?", "HAS_BIRTHDAY"),
    ("{name} works as a {job} at the hospital in {place}", "what does {name} do for a living?", "WORKS_AS"),
    ("{name} recommended the novel {book} to me", "which book did {name} recommend?", "RECOMMENDED"),
    ("{name} lent me {item} and I still have to give them back", "what do I need to return to {name}?",
     "LENT"),
    ("My favourite restaurant in {place} is a small {cuisine} place on {street}",
     "where should I eat in {place}?", "FAVOURITE_RESTAURANT"),
    ("I'm learning {language} with a tutor called {name}", "who teaches me {language}?", "TUTORED_BY"),
    ("{name} and I went hiking in {region} in {month}", "who did I go hiking with in {region}?",
     "HIKED_WITH"),
    ("I'm allergic to {allergen}, so I always check the menu when we eat out", "what am I allergic to?",
     "ALLERGIC_TO"),
    ("My dentist is Dr. {surname}, whose practice is on {street} in {place}", "who is my dentist?",
     "DENTIST"),
    ("The spare key to the flat is with {name}, the neighbour on the second floor",
     "who has my spare key?", "HAS_KEY"),
    ("I drive a {color} {car} that I bought second-hand", "what car do I have?", "DRIVES"),
    ("Our dog {pet} is a {breed} who hates thunderstorms", "what's my dog called?", "OWNS"),
    ("My daughter has {instrument} lessons every {weekday} after school",
     "when are my daughter's music lessons?", "LESSONS"),
    ("I'm training for the {place} half marathon in {month}", "which race am I training for?",
     "TRAINING_FOR"),
    ("My manager at work is {name}; our one-to-ones are on {weekday}s", "who is my boss?", "MANAGED_BY"),
    ("I gave up coffee and now have {drink} in the mornings", "what do I drink in the morning?",
     "DRINKS"),
    ("My passport expires in {month} {year}, I need to renew it", "when does my passport expire?",
     "PASSPORT"),
    ("My sister {name} is a {job} and lives in {place}", "what does my sister do?", "SISTER"),
    ("The plumber who fixed our kitchen sink was {name}, very reliable", "who fixed the sink?",
     "PLUMBER"),
    ("My wife's favourite flowers are {flower}", "what flowers does my wife like?", "LIKES"),
    ("My blood type is {blood}", "what's my blood type?", "BLOOD_TYPE"),
    ("Our wedding anniversary is on {day} {month}", "when is our anniversary?", "ANNIVERSARY"),
    ("My GP is Dr. {surname} at the health centre on {street}", "who is my doctor?", "GP"),
    ("My favourite band is {band}, I've seen them live {n} times", "what music do I like?", "FAN_OF"),
    ("I'm saving up for a trip to {place} in {month}", "where am I planning to travel?", "PLANS_TRIP"),
    ("My son is in year {n} at {school}", "which school does my son go to?", "ATTENDS"),
]
# Everyday notes around them: about the same people, places and pastimes, but none states what a
# planted fact states.
NOTES = [
    "Had {food} for lunch with {name} near the station in {place}",
    "Watched a documentary about {topic} on {weekday} evening",
    "Talked with {name} about {topic} over {drink}",
    "Went to a {topic} meetup in {place} with {name}",
    "Want to get better at {topic} this year",
    "{name} mentioned a good podcast about {topic}",
    "It rained all day in {place}, so I stayed in and read about {topic}",
    "Bought {item} for the {topic} weekend",
    "Called {name} about the trip to {region} in {month}",
    "Prefer {drink} when working late",
    "Felt tired after the {topic} class on {weekday}",
    "Cooked {food} for {name} and it turned out well",
    "Missed the {topic} club on {weekday} because of work",
    "{name} sent photos from {place}, the weather looked great",
    "Thinking of taking {name} to {place} for a weekend in {month}",
]


@dataclass(frozen=True)
class Plant:
    fact: str
    question: str
    relation: str
    entities: Named


@dataclass(frozen=True)
class Fact:
    fact_id: str  # Lore's memory_id and Graphiti's edge uuid: one id on both sides
    person: str
    text: str
    relation: str
    entities: Named
    vector: np.ndarray
    at: datetime


@dataclass(frozen=True)
class Ask:
    person: str
    question: str
    answer: str  # the fact_id of the planted fact


@dataclass
class Row:
    label: str
    seconds: list[float]  # per query, in the order asked
    hits: list[bool]  # per query: was its planted fact in the top 10


def fill(template: str, rng: random.Random, fixed: dict[str, str] | None = None) -> tuple[str, Named]:
    """The template filled at random, and the things it names (in order)."""
    values = {field: rng.choice(options) for field, options in FILL.items()} | (fixed or {})
    named = [values[f] for f in ENTITY_FIELDS if "{" + f + "}" in template]
    return template.format(**values), tuple(dict.fromkeys(named))


def notes(n: int, seed: int) -> list[tuple[str, Named]]:
    """n distinct everyday notes."""
    rng = random.Random(seed)
    found: dict[str, tuple[str, ...]] = {}
    while len(found) < n:
        text, named = fill(rng.choice(NOTES), rng)
        found.setdefault(text, named)
    return list(found.items())


def population(size: int, per_person: int, big: int) -> list[tuple[str, int]]:
    """(person, facts) for `size` facts: one big person, the rest in people of `per_person`."""
    big = min(big, size // 2)
    rest = size - big
    people = [(f"person-{i:05d}", min(per_person, rest - i * per_person))
              for i in range(-(-rest // per_person))]
    return ([("big-person", big)] if big else []) + people


def plant(people: list[tuple[str, int]], queries: int, seed: int) -> tuple[dict[str, list[Plant]], list[Ask]]:
    """Half the questions to the big person (if any), half spread over the others; each one's
    planted fact, unique among that person's questions."""
    rng = random.Random(seed)
    big = [p for p, _ in people if p == "big-person"]
    others = [p for p, _ in people if p != "big-person"]
    askees = [big[0] if big and i % 2 == 0 else rng.choice(others or big) for i in range(queries)]
    plants: dict[str, list[Plant]] = {}
    asked: dict[str, set[str]] = {}
    order: list[tuple[str, str]] = []
    for person in askees:
        for _ in range(1000):
            fact_template, question_template, relation = rng.choice(PLANTS)
            values = {field: rng.choice(options) for field, options in FILL.items()}
            question = question_template.format(**values)
            if question not in asked.setdefault(person, set()):
                break
        else:
            raise SystemExit(f"ran out of distinct questions for {person}: ask fewer --queries")
        asked[person].add(question)
        text, named = fill(fact_template, rng, values)
        plants.setdefault(person, []).append(Plant(text, question, relation, named))
        order.append((person, question))
    counts = dict(people)
    for person, planted in plants.items():
        if len(planted) > counts[person]:
            raise SystemExit(f"{person} holds {counts[person]} facts but was asked {len(planted)} questions")
    ids = {(p, pl.question): fact_id(p, f"plant-{i}") for p, planted in plants.items()
           for i, pl in enumerate(planted)}
    return plants, [Ask(p, q, ids[(p, q)]) for p, q in order]


def fact_id(person: str, key: str) -> str:
    return derived_id("graphiti-bench", person, key)


def facts(people: list[tuple[str, int]], plants: dict[str, list[Plant]], pool: list[tuple[str, Named]],
          pool_vectors: np.ndarray, plant_vectors: dict[str, np.ndarray], seed: int) -> Iterator[Fact]:
    """Everyone's facts, the same on every call: notes with noisy vectors (so that no two coincide,
    which would flatter an HNSW graph) and the planted facts with their own, at shuffled times."""
    for index, (person, count) in enumerate(people):
        rng = np.random.default_rng([seed, index])
        planted = plants.get(person, [])
        picks = rng.integers(0, len(pool), size=count - len(planted))
        noisy = pool_vectors[picks] + rng.normal(0, 0.02, size=(len(picks), pool_vectors.shape[1]))
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        items = [(fact_id(person, f"note-{i}"), pool[p][0], "NOTED", pool[p][1], v.astype(np.float32))
                 for i, (p, v) in enumerate(zip(picks, noisy, strict=True))]
        items += [(fact_id(person, f"plant-{i}"), pl.fact, pl.relation, pl.entities, plant_vectors[pl.fact])
                  for i, pl in enumerate(planted)]
        order = rng.permutation(len(items))
        for position, i in enumerate(order):
            key, text, relation, named, vector = items[i]
            at = START + timedelta(minutes=int(position) * 37)
            yield Fact(key, person, text, relation, named, vector, at)


def bar(what: str) -> Progress:
    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=console)


def wipe(settings: Settings) -> None:
    """Everything in the database, whoever's labels (the two schemas share `Entity`), and every
    constraint and index but the token lookups: neither system's load should also feed the
    other's indexes (Graphiti's fulltext index on `Entity` would index Lore's entities)."""
    lore = bootstrap(settings, embedder=None)
    with lore.driver.session(database=settings.neo4j_database) as session:  # IN TRANSACTIONS: implicit
        # Relationships first: one person's node may hold thousands, too many for one small transaction.
        session.run("MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS").consume()
        session.run("MATCH (n) CALL (n) { DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
        for (name,) in session.run("SHOW CONSTRAINTS YIELD name").values():
            session.run(f"DROP CONSTRAINT `{name}` IF EXISTS").consume()
        indexes = session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name").values()
        for (name,) in indexes:
            session.run(f"DROP INDEX `{name}` IF EXISTS").consume()
    lore.close()


# --- Lore -------------------------------------------------------------------------------------


def lore_events(items: Iterable[Fact]) -> Iterator[MemoryRecorded]:
    for f in items:
        yield MemoryRecorded(
            event_id=derived_id("event", f.person, f.fact_id), user_id=f.person, command_id=f.fact_id,
            occurred_at=f.at, recorded_at=f.at, memory_id=f.fact_id, kind=MemoryKind.FACT, content=f.text,
            valid_from=f.at, importance=0.5, entities=f.entities,
            embedding=Embedding.of(LocalMiniLM.model, f.vector.tolist()))


def lore_load(settings: Settings, model: LocalMiniLM, items: Iterator[Fact], total: int) -> float:
    """Project the facts as MemoryRecorded events (the rebuild path); seconds taken, indexes online."""
    started = time.perf_counter()
    lore = bootstrap(settings, embedder=model)
    ensure_schema(lore.driver, model.dimensions, settings.neo4j_database)
    with bar("Lore: projecting memories") as progress:
        task = progress.add_task("load", total=total)
        position = 0
        for batch in chunks(items, 5000):
            lore.projector.apply([StoredEvent(0, position + i, e) for i, e in enumerate(lore_events(batch))])
            position += len(batch)
            progress.advance(task, len(batch))
    lore.driver.execute_query("CALL db.awaitIndexes(3600)")
    lore.close()
    return time.perf_counter() - started


def lore_search(settings: Settings, model: LocalMiniLM, asks: list[Ask], warm: int) -> list[Row]:
    """Lore's SearchService in this process (embedding each query, no cache) and over HTTP, taking
    turns query by query so that both see the same moments of a busy machine."""
    lore = bootstrap(settings, embedder=model)
    window = Window(valid_at=datetime.now(UTC), known_at=None)
    server, url = serve(settings)
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            def in_process(ask: Ask) -> list[str]:
                return [hit.id for hit in lore.search.search(ask.person, ask.question, window, limit=10,
                                                             types=("memory",))]

            def over_http(ask: Ask) -> list[str]:
                response = client.post(f"/v1/users/{ask.person}/search",
                                       json={"query": ask.question, "limit": 10})
                response.raise_for_status()
                answer = response.json()
                if answer.get("degraded"):  # the server would measure less than Lore's search
                    raise SystemExit(f"lore serve left sources out: {answer['degraded']}")
                return [hit["id"] for hit in answer["hits"]]

            return timed_rows({"Lore, in process: SearchService.search": in_process,
                               "Lore, HTTP: POST /v1/users/{id}/search": over_http}, asks, warm)
    finally:
        server.terminate()
        server.wait(30)
        lore.close()


def timed_rows(searches: dict[str, Callable[[Ask], list[str]]], asks: list[Ask], warm: int) -> list[Row]:
    """Each query asked of each search in turn; the first `warm` queries warm caches and
    connections and are not counted."""
    rows = [Row(label, [], []) for label in searches]
    for n, ask in enumerate(asks[:warm] + asks):
        for row, search in zip(rows, searches.values(), strict=True):
            started = time.perf_counter()
            ids = search(ask)
            if n >= min(warm, len(asks)):
                row.seconds.append(time.perf_counter() - started)
                row.hits.append(ask.answer in ids[:10])
    return rows


# --- Graphiti ---------------------------------------------------------------------------------


def graphiti_modules() -> Any:
    """Import graphiti_core (its telemetry off: nothing leaves this machine), at the pinned version."""
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    try:
        version = metadata.version("graphiti-core")
    except metadata.PackageNotFoundError:
        raise SystemExit(f"graphiti-core is missing: pip install graphiti-core=={GRAPHITI_VERSION}") from None
    if version != GRAPHITI_VERSION:
        console.log(f"[yellow]graphiti-core {version} installed; this benchmark is for {GRAPHITI_VERSION}")
    import graphiti_core

    return graphiti_core


def graphiti_clients(model: LocalMiniLM) -> tuple[Any, Any, Any]:
    """An EmbedderClient over Lore's model, and an LLM and a cross-encoder that refuse to be used:
    loading takes no LLM, and the recipes timed take no reranking model."""
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.embedder.client import EmbedderClient
    from graphiti_core.llm_client.client import LLMClient

    class MiniLMEmbedder(EmbedderClient):
        async def create(self, input_data: Any) -> list[float]:
            text = input_data if isinstance(input_data, str) else input_data[0]
            return [float(x) for x in model.embed([text])[0]]

        async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
            return [[float(x) for x in v] for v in model.embed(input_data_list)]

    class NoLLM(LLMClient):
        async def _generate_response(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise RuntimeError("this benchmark gives Graphiti no LLM")

    class NoCrossEncoder(CrossEncoderClient):
        async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
            raise RuntimeError("this benchmark gives Graphiti no cross-encoder")

    return MiniLMEmbedder(), NoLLM(None), NoCrossEncoder()


def graphiti_open(settings: Settings, model: LocalMiniLM) -> Any:
    """Made outside the event loop: inside one, Neo4jDriver starts building its indices in the
    background, and our own build_indices_and_constraints() would race it (harmless, but it logs an
    error per index)."""
    graphiti_modules()
    # Graphiti's queries name properties our facts leave unset (reference_time, entity_edges); the
    # server's notice about each, on every query, would drown the progress bars.
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    from graphiti_core import Graphiti
    from graphiti_core.driver.neo4j_driver import Neo4jDriver

    embedder, llm, cross_encoder = graphiti_clients(model)
    driver = Neo4jDriver(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password or "",
                         database=settings.neo4j_database)
    return Graphiti(graph_driver=driver, llm_client=llm, embedder=embedder, cross_encoder=cross_encoder)


def ends(named: Named) -> tuple[str, str]:
    """The EntityNodes an edge joins: the first two things the fact names; "me" (the person's own
    node) stands in for what it does not name ("I'm allergic to ..." names nothing)."""
    padded = ["me", *named] if len(named) < 2 else list(named)
    return (padded + ["me", "me"])[0], (padded + ["me", "me"])[1]


async def graphiti_load(graphiti: Any, model: LocalMiniLM, items: Iterator[Fact], total: int) -> float:
    """Save each fact as an EntityEdge between the EntityNodes it names (or the person's own node), in
    Graphiti's schema, through its bulk writer; seconds taken, indexes online."""
    from graphiti_core.edges import EntityEdge
    from graphiti_core.nodes import EntityNode
    from graphiti_core.utils.bulk_utils import add_nodes_and_edges_bulk

    started = time.perf_counter()
    await graphiti.build_indices_and_constraints()
    names = sorted({v for f in ENTITY_FIELDS for v in FILL[f]} | {"me"})
    name_vectors = dict(zip(names, model.embed(names), strict=True))
    saved: set[str] = set()

    def node(person: str, name: str) -> tuple[str, EntityNode | None]:
        uuid = derived_id("graphiti-bench-node", person, name)
        if uuid in saved:
            return uuid, None
        saved.add(uuid)
        return uuid, EntityNode(uuid=uuid, name=name, group_id=person, labels=["Entity"], created_at=START,
                                name_embedding=[float(x) for x in name_vectors[name]])

    with bar("Graphiti: saving entity edges") as progress:
        task = progress.add_task("load", total=total)
        for batch in chunks(items, 2000):
            nodes, edges = [], []
            for f in batch:
                subject, obj = ends(f.entities)
                (source, new_source), (target, new_target) = node(f.person, subject), node(f.person, obj)
                nodes += [n for n in (new_source, new_target) if n is not None]
                edges.append(EntityEdge(
                    uuid=f.fact_id, group_id=f.person, source_node_uuid=source, target_node_uuid=target,
                    created_at=f.at, name=f.relation, fact=f.text, fact_embedding=f.vector.tolist(),
                    episodes=[], valid_at=f.at))
            await add_nodes_and_edges_bulk(graphiti.driver, [], [], nodes, edges, graphiti.embedder)
            progress.advance(task, len(batch))
    await graphiti.driver.execute_query("CALL db.awaitIndexes(3600)")
    return time.perf_counter() - started


async def graphiti_search(graphiti: Any, asks: list[Ask], warm: int) -> list[Row]:
    """Graphiti's search(), as its README calls it (EDGE_HYBRID_SEARCH_RRF: BM25 + cosine over facts,
    fused by RRF), and search_() with COMBINED_HYBRID_SEARCH_RRF (edges, nodes, episodes and
    communities, each hybrid): the facts it returns are its answer. They take turns, query by query."""
    from graphiti_core.search.search_config_recipes import COMBINED_HYBRID_SEARCH_RRF

    combined = COMBINED_HYBRID_SEARCH_RRF.model_copy(update={"limit": 10})

    async def default(ask: Ask) -> list[str]:
        return [e.uuid for e in await graphiti.search(ask.question, group_ids=[ask.person], num_results=10)]

    async def combined_rrf(ask: Ask) -> list[str]:
        results = await graphiti.search_(ask.question, config=combined, group_ids=[ask.person])
        return [e.uuid for e in results.edges]

    searches: dict[str, Callable[[Ask], Awaitable[list[str]]]] = {
        "Graphiti: search() = EDGE_HYBRID_SEARCH_RRF": default,
        "Graphiti: search_(COMBINED_HYBRID_SEARCH_RRF)": combined_rrf}
    rows = [Row(label, [], []) for label in searches]
    for n, ask in enumerate(asks[:warm] + asks):  # as timed_rows does
        for row, search in zip(rows, searches.values(), strict=True):
            started = time.perf_counter()
            ids = await search(ask)
            if n >= min(warm, len(asks)):
                row.seconds.append(time.perf_counter() - started)
                row.hits.append(ask.answer in ids[:10])
    return rows


async def graphiti_phase(graphiti: Any, model: LocalMiniLM, items: Iterator[Fact], total: int,
                         asks: list[Ask], warm: int) -> tuple[float, list[Row]]:
    try:
        loaded = await graphiti_load(graphiti, model, items, total)
        return loaded, await graphiti_search(graphiti, asks, warm)
    finally:
        await graphiti.close()


# --- one size ---------------------------------------------------------------------------------


def pct(seconds: list[float], p: int) -> float:
    return statistics.quantiles(seconds, n=100, method="inclusive")[p - 1] * 1000 if len(seconds) > 1 \
        else seconds[0] * 1000


def run_size(settings: Settings, model: LocalMiniLM, args: argparse.Namespace, size: int,
             pool: list[tuple[str, Named]], pool_vectors: np.ndarray) -> None:
    people = population(size, args.per_person, args.big)
    plants, asks = plant(people, args.queries, seed=size)
    texts = sorted({pl.fact for planted in plants.values() for pl in planted})
    plant_vectors = dict(zip(texts, np.asarray(model.embed(texts), dtype=np.float32), strict=True))

    def items() -> Iterator[Fact]:  # the same facts for both systems
        return facts(people, plants, pool, pool_vectors, plant_vectors, seed=7)

    console.rule(f"{size:,} facts: {len(people):,} people, the big one with {people[0][1]:,}")
    wipe(settings)
    lore_seconds = lore_load(settings, model, items(), size)
    rows = lore_search(settings, model, asks, args.warm)
    wipe(settings)
    graphiti_seconds, graphiti_rows = asyncio.run(
        graphiti_phase(graphiti_open(settings, model), model, items(), size, asks, args.warm))
    rows += graphiti_rows
    console.log(f"loading {size:,} facts took {lore_seconds:,.0f} s for Lore, {graphiti_seconds:,.0f} s for "
                f"Graphiti (indexes online)")
    console.print(table(size, people, asks, rows))


def table(size: int, people: list[tuple[str, int]], asks: list[Ask], rows: list[Row]) -> Table:
    """Per group of people asked, each search's p50/p95 and recall@10, and each row against Lore's
    in-process search (the like-for-like one: both are a library call in this process)."""
    counts = dict(people)
    ordinary = max((c for p, c in people if p != "big-person"), default=0)
    groups = [(f"the person with {counts.get('big-person', 0):,} facts", True),
              (f"people with {ordinary:,} facts", False)]
    out = Table(title=f"{size:,} facts, {len(asks):,} queries one at a time, same Neo4j, same embedder; "
                      "ratios against Lore in process")
    for column in ("asked of", "search", "p50 ms", "p95 ms", "recall@10", "p50 ×", "p95 ×", "recall Δ pts"):
        out.add_column(column, justify="left" if column in ("asked of", "search") else "right")
    for group, big in groups:
        picks = [i for i, a in enumerate(asks) if (a.person == "big-person") == big]
        if not picks:
            continue
        base: tuple[float, float, float] | None = None
        for row in rows:
            seconds = [row.seconds[i] for i in picks]
            recall = 100 * sum(row.hits[i] for i in picks) / len(picks)
            p50, p95 = pct(seconds, 50), pct(seconds, 95)
            base = base or (p50, p95, recall)
            out.add_row(group, row.label, f"{p50:.1f}", f"{p95:.1f}", f"{recall:.0f} %",
                        f"{p50 / base[0]:.2f}", f"{p95 / base[1]:.2f}", f"{recall - base[2]:+.0f}")
            group = ""
        out.add_section()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000", help="facts in all, comma-separated")
    parser.add_argument("--per-person", type=int, default=1000, help="facts of each ordinary person")
    parser.add_argument("--big", type=int, default=10_000, help="facts of the one big person (≤ half a size)")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per size and system")
    parser.add_argument("--distinct", type=int, default=20_000, help="distinct everyday notes embedded")
    parser.add_argument("--warm", type=int, default=10, help="untimed queries first, per row")
    stack.add_arguments(parser)
    args = parser.parse_args()
    graphiti_modules()  # fail before loading anything if it is missing
    model = LocalMiniLM()
    pool = notes(args.distinct, seed=1)
    with console.status(f"embedding {len(pool):,} distinct notes"):
        pool_vectors = np.asarray(model.embed([text for text, _ in pool]), dtype=np.float32)
    with stack.bench_servers(args, "graphiti") as servers:
        # The store holds the local model's vectors: the server it starts must embed with it too.
        settings = servers.settings(home=Path(tempfile.mkdtemp(prefix="lore-bench-graphiti-")),
                                    embedder=EMBEDDER)
        served = open_embedder(settings)
        if served is None or served.model != model.model:
            raise SystemExit(f"LORE_EMBEDDER={EMBEDDER} serves {served and served.model}, not {model.model}")
        for size in (int(s) for s in args.sizes.split(",")):
            run_size(settings, model, args, size, pool, pool_vectors)


if __name__ == "__main__":
    main()

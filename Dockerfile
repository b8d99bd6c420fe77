FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY services ./services
COPY projections ./projections
COPY infra ./infra
RUN pip install --no-cache-dir .
# The default embedder (e5-small-v2) in the image: taken from Maven Central once, at build.
ENV LORE_JAR_CACHE=/opt/lore/jars
RUN python -c "from infra.embedding.jar_models import MODELS, unpacked; from infra.settings import Settings; \
unpacked(MODELS['e5-small-v2'], Settings().jar_cache)"
ENV LORE_API_HOST=0.0.0.0 LORE_HOME=/data
EXPOSE 8000
CMD ["lore", "serve"]

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY services ./services
COPY projections ./projections
COPY infra ./infra
RUN pip install --no-cache-dir .
ENV LORE_API_HOST=0.0.0.0 LORE_HOME=/data
EXPOSE 8000
CMD ["lore", "serve"]

# The graphmem MCP server over streamable HTTP (used by docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graphmem ./graphmem
COPY cypher ./cypher
RUN pip install . && useradd --system --home-dir /app graphmem

USER graphmem
# Inside the container graphmem must listen on all interfaces for the published port;
# that is only allowed with credentials (GRAPHMEM_HTTP_TOKEN_SHA256), see docker-compose.yml.
ENV GRAPHMEM_HOST=0.0.0.0 GRAPHMEM_PORT=8000
EXPOSE 8000
CMD ["graphmem", "serve", "--transport", "http"]

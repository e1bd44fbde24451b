# The graphmem MCP server over streamable HTTP (used by docker-compose.yml).
# BASE defaults to the official Python image; docker/build-images.sh builds it with no registry
# on graphmem's Debian base, with Python from Debian and the wheels it put in docker/wheels.
ARG BASE=python:3.11-slim
FROM ${BASE}

RUN command -v python3 >/dev/null \
 || (apt-get update \
     && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-venv \
     && rm -rf /var/lib/apt/lists/*)

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PATH=/opt/graphmem/bin:$PATH
WORKDIR /app
COPY pyproject.toml README.md ./
COPY graphmem ./graphmem
COPY cypher ./cypher
COPY docker/wheels/ /wheels/
# With wheels in docker/wheels, pip installs from them alone (no index); else from PyPI.
RUN python3 -m venv /opt/graphmem \
 && if ls /wheels/graphmem-*.whl >/dev/null 2>&1; then \
      pip install --no-index --find-links /wheels graphmem; \
    else \
      pip install .; \
    fi \
 && rm -rf /wheels \
 && useradd --system --home-dir /app graphmem \
 && mkdir -p /var/lib/graphmem && chown graphmem /var/lib/graphmem && chmod 700 /var/lib/graphmem

USER graphmem
# Inside the container graphmem must listen on all interfaces for the published port;
# that is only allowed with credentials (GRAPHMEM_HTTP_TOKEN_SHA256), see docker-compose.yml.
ENV GRAPHMEM_HOST=0.0.0.0 GRAPHMEM_PORT=8000
# The history key (HMAC of the hash chain) lives outside the database, in the volume that
# docker-compose.yml mounts here; a new container keeps the key the chain was written with.
ENV GRAPHMEM_HISTORY_KEY_FILE=/var/lib/graphmem/history.key
# Search's embedding model (e5-small-v2, pinned by digest) is fetched by the first start into
# the same volume, so later containers find it there (until then search runs without vectors).
ENV GRAPHMEM_CACHE_DIR=/var/lib/graphmem/cache
EXPOSE 8000
CMD ["graphmem", "serve", "--transport", "http"]

# Gouji (够级) Discord bot — a small image: python:3.11-slim, a non-root user, the database
# on a volume. Build and run:
#     docker build -t gouji .
#     docker run -d --name gouji -e DISCORD_TOKEN=… -v gouji-data:/data gouji
# or with compose (token from .env):  docker compose up -d
#
# The pictures need no system fonts: the project ships its own (render/assets, SIL OFL), and
# the Pillow wheel brings FreeType, libpng and zlib with it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src

# Install the package the same way the README does (pip install .), then drop the sources:
# the installed package (fonts and migrations included) is all the bot needs.
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY data ./data
COPY bot ./bot
RUN pip install . && cd / && rm -rf /src
# (the next steps must not start in the removed /src)
WORKDIR /

# A user without a login shell or home, owning only the data folder.
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin gouji \
    && mkdir -p /data && chown gouji:gouji /data
USER gouji
WORKDIR /data

ENV GOUJI_DB=/data/gouji.db
VOLUME ["/data"]

# `docker stop` sends SIGINT, which Python turns into KeyboardInterrupt: the bot closes its
# connection and the database cleanly (every action is already committed anyway).
STOPSIGNAL SIGINT
# Without DISCORD_TOKEN the bot says how to get one and exits with status 2.
CMD ["gouji", "bot"]

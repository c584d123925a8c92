# Build: docker build -t ladderbot .
# Run a profile from a mounted folder:
#   docker run --rm -v "$PWD/bots:/config:ro" -e LADDERBOT_CLIENT__SERVER=ws://host:8765 \
#     ladderbot play --profile /config/four3d-pmc.toml --games 10
# Run the match server:
#   docker run --rm -p 8765:8765 ladderbot serve --bind 0.0.0.0:8765 --records /data/records.jsonl

FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY benches ./benches
RUN cargo build --release --locked --bin ladderbot

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /home/ladderbot --uid 10001 ladderbot \
    && mkdir -p /config /data && chown ladderbot /data
COPY --from=build /src/target/release/ladderbot /usr/local/bin/ladderbot
COPY bots /usr/local/bin/bots
USER ladderbot
WORKDIR /data
VOLUME ["/config", "/data"]
ENV LADDERBOT_PROFILE=/config/bot.toml
ENTRYPOINT ["ladderbot"]
CMD ["play"]

# ladderbot in a container: one static binary, the bot profiles and a data folder, FROM scratch.
#
# Build:
#   docker build -t ladderbot .
# With podman and no registry, from a local builder image with cargo (.ci/image makes it, and
# binds the host's CA bundle in with -v for a network that re-signs crates.io's certificate):
#   podman build --pull=never --build-arg RUST_IMAGE=localhost/ladderbot-builder:bookworm -t ladderbot .
#
# Run (the default command plays one game of Score Four against the in-process house bot):
#   docker run --rm ladderbot
#   docker run --rm ladderbot play four3d --agent pmc --playouts 5000 --games 3
# A shipped profile (bots/NAME.toml lies beside the binary) against a real server:
#   docker run --rm -e LADDERBOT_CLIENT__SERVER=ws://HOST:8765 ladderbot play --profile four3d-pmc --games 10
# A profile of your own, from a mounted folder:
#   docker run --rm -v "$PWD/mybots:/config:ro" ladderbot play --profile /config/bot.toml
# A Riddles.io GOLAD bot on stdin/stdout:
#   docker run --rm -i ladderbot --profile golad-best < engine-lines
# The match server; records go to /data (a volume; the container runs as uid 10001, so a mounted
# host folder must be writable by it: mkdir -p data && chown 10001:10001 data):
#   docker run --rm -p 8765:8765 -v "$PWD/data:/data" ladderbot serve --bind 0.0.0.0:8765
# `docker stop` sends SIGTERM (as Kubernetes does): play finishes the game in progress and serve
# stops, both with their records flushed. Compose, systemd and Kubernetes files: deploy/.

# The build stage: any image with cargo (Rust >= 1.85), gcc and glibc's static libraries
# (libc6-dev). The official image has them; a host without Docker Hub passes its own.
ARG RUST_IMAGE=docker.io/library/rust:1-bookworm
FROM ${RUST_IMAGE} AS build
WORKDIR /src
# Everything cargo needs to read the manifest (the bench and the example are declared or found
# by it; the workspace names the lab beside the engine, whose sources cargo reads but never
# builds here: only the engine's binary is built), and the sources of the binary.
COPY Cargo.toml Cargo.lock ./
COPY lab ./lab
COPY src ./src
COPY benches ./benches
COPY examples ./examples
# The shipped profiles are built into the binary too (src/config/shipped.rs).
COPY bots ./bots
# The binary is the upload binary (cargo's `upload` profile: the release build, no debug
# information, its symbols stripped), as scripts/upload.sh builds it.
# A builder image that already holds a static binary at /usr/local/lib/ladderbot-prebuilt/ladderbot
# gives that one instead of compiling (CI: the binary its tests ran, .ci/image); any other
# builder compiles it here.
# The crates downloaded and the target folder are cache mounts (BuildKit, the default builder of
# Docker 23 and later, and podman/buildah keep them between builds): a rebuild after a change to
# src/ compiles only ladderbot itself, not every dependency again. They are not part of any
# image layer. CARGO_HOME is set so that the registry's place is the same in every builder.
ENV CARGO_HOME=/usr/local/cargo
RUN --mount=type=cache,id=ladderbot-cargo-registry,target=/usr/local/cargo/registry \
    --mount=type=cache,id=ladderbot-target,target=/src/target \
    if [ -x /usr/local/lib/ladderbot-prebuilt/ladderbot ]; then \
      bin=/usr/local/lib/ladderbot-prebuilt/ladderbot; echo "using the builder's $bin"; \
    else \
      cargo --version \
      && RUSTFLAGS='-C target-feature=+crt-static' \
         cargo build --profile upload --locked --target x86_64-unknown-linux-gnu -p ladderbot --bin ladderbot \
      && bin=target/x86_64-unknown-linux-gnu/upload/ladderbot; \
    fi \
    && if readelf -l "$bin" | grep -q INTERP || readelf -d "$bin" | grep -q NEEDED; then \
         echo "ladderbot is not statically linked:" >&2; readelf -d "$bin" >&2; exit 1; \
       fi \
    && echo "$bin: statically linked, no interpreter, no shared libraries, $(wc -c <"$bin") bytes" \
    && mkdir -p /out/bin /out/rw/data /out/etc \
    && printf 'hosts: files dns\n' > /out/etc/nsswitch.conf \
    && cp "$bin" /out/bin/ladderbot

# The image: the binary, the profiles beside it (`--profile NAME` finds bots/NAME.toml there)
# and /data, the working folder, writable by the bot's user. No shell, no libc, no CA bundle
# (wss:// uses the Mozilla roots built into the binary).
FROM scratch
COPY --from=build /out/bin/ladderbot /usr/local/bin/ladderbot
# Names resolve from /etc/hosts (hostAliases, --add-host, localhost) before DNS, as on any distro.
COPY --from=build /out/etc/nsswitch.conf /etc/nsswitch.conf
COPY bots/*.toml /usr/local/bin/bots/
# /data is copied as an entry of /out/rw (not created as a destination) so that every builder
# gives it the owner; the binary and the profiles stay root's.
COPY --from=build --chown=10001:10001 /out/rw/ /
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
ENTRYPOINT ["/usr/local/bin/ladderbot"]
CMD ["play", "four3d"]

# storyreel in a container: built on the official Swift image for Debian 12, run on
# debian:bookworm-slim with only the libraries the binary needs.
#
#   docker build -t storyreel .
#   docker run --rm -v "$PWD/samples:/data" storyreel inspect /data/portrait-h264.mp4
#
# The Swift version matches the toolchain the project is built and tested with (`swift --version`);
# `make test` (scripts/check-deploy.py) checks that, and that the runtime packages below are
# exactly the Debian packages of the libraries the static binary links or loads (no Docker daemon needed).
ARG SWIFT_IMAGE=swift:6.3.1-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends \
        pkg-config libavformat-dev libavcodec-dev libswscale-dev libavutil-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# Package.swift names the test targets' folders, which SwiftPM checks even for one product.
COPY Tests ./Tests
# --static-swift-stdlib: the Swift runtime and Foundation are linked in, so the binary needs no
# toolchain at run time (its RUNPATH is only $ORIGIN).
RUN swift build -c release --product storyreel --static-swift-stdlib \
    && install -D -m 755 .build/release/storyreel /out/storyreel

FROM debian:bookworm-slim AS runtime
# The FFmpeg 5.1 libraries (libavformat and libavcodec are loaded when a command first reads
# media), the C++ runtime and libgcc_s (the statically linked Swift runtime and Foundation's ICU
# need them) and the C library: scripts/check-deploy.py compares this list with the Debian
# packages of the libraries the binary links and loads.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends \
        libavformat59 libavcodec59 libswscale6 libavutil57 libstdc++6 libgcc-s1 libc6 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/storyreel /usr/local/bin/storyreel
RUN useradd --system --uid 10001 --no-create-home storyreel
USER storyreel
WORKDIR /data
ENTRYPOINT ["storyreel"]
CMD ["--help"]

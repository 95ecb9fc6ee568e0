# A CI image with cuda-tidy, the CUDA headers and CCCL it analyzes against,
# and what CMake needs to write a compile database (nvcc, g++, cmake, ninja),
# but no driver and no GPU: nothing here runs a kernel.
#
# The image installs the .deb this repository's build makes, so build that
# first (docs/integrations.md#container-image):
#   cmake --build build --target package        # build/packages/cuda-tidy_*.deb
#   docker build -t cuda-tidy:0.1.0 .           # .dockerignore sends only the .deb
#
# CUDA comes from NVIDIA's Debian 12 repository (x86_64); CUDA_VERSION picks
# the toolkit (docker build --build-arg CUDA_VERSION=12.9 . for another).
# tests/package/packages_test.sh checks that the COPY sources exist in the
# context the .dockerignore leaves once the .deb is built; no image is built
# in the tests (no Docker daemon or network there).
FROM debian:12-slim

ARG CUDA_VERSION=13.0
ARG CUDA_REPO=https://developer.download.nvidia.com/compute/cuda/repos/debian12/x86_64

# nvcc and the runtime's headers and static library (CMake's CUDA language
# test compiles and links a program), CCCL (thrust, cub, libcu++, which
# CUDA 13's headers include), and g++: the host compiler nvcc needs and the
# C++ library headers cuda-tidy parses host code against.
# hadolint ignore=DL3008
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates curl; \
    curl -fsSLo /tmp/cuda-keyring.deb "$CUDA_REPO/cuda-keyring_1.1-1_all.deb"; \
    dpkg -i /tmp/cuda-keyring.deb; \
    rm /tmp/cuda-keyring.deb; \
    apt-get update; \
    v=$(echo "$CUDA_VERSION" | tr . -); \
    apt-get install -y --no-install-recommends \
        "cuda-nvcc-$v" "cuda-cudart-dev-$v" "cuda-cccl-$v" \
        g++ cmake ninja-build make git; \
    apt-get purge -y curl; \
    apt-get autoremove -y; \
    rm -rf /var/lib/apt/lists/*

ENV CUDA_PATH=/usr/local/cuda-${CUDA_VERSION} \
    PATH=/usr/local/cuda-${CUDA_VERSION}/bin:${PATH}

COPY build/packages/cuda-tidy_*_amd64.deb /tmp/cuda-tidy/
# hadolint ignore=DL3008
RUN set -eux; \
    apt-get update; \
    apt-get install -y --no-install-recommends /tmp/cuda-tidy/cuda-tidy_*_amd64.deb; \
    rm -rf /tmp/cuda-tidy /var/lib/apt/lists/*; \
    cuda-tidy --version; \
    nvcc --version

# Git refuses a checkout owned by another user (a CI runner's volume) for
# --diff; the image is a CI tool, so any folder is trusted.
RUN git config --system --add safe.directory '*'
WORKDIR /src
CMD ["cuda-tidy", "--help"]

#!/usr/bin/env bash
# Builds a base image for docker/Dockerfile from Debian's packages alone, for machines that reach a Debian mirror but
# no image registry: debootstrap a minimal Debian 12 (bookworm) with openjdk-17-jre-headless, curl and
# ca-certificates, and import it into Podman as partita-base:bookworm (or the name given as $1).
#   bash docker/base-image.sh [image-name]
# Needs root, debootstrap and podman (apt-get install -y podman debootstrap). The mirror is the one apt uses here
# (from /etc/apt/sources.list*), or DEBIAN_MIRROR. Does nothing when the image exists already (FORCE=1 rebuilds it).
set -euo pipefail
image=${1:-partita-base:bookworm}
if [[ -z "${FORCE:-}" ]] && podman image exists "$image"; then
    echo "base image $image exists"
    exit 0
fi
mirror=${DEBIAN_MIRROR:-}
if [[ -z "$mirror" ]]; then
    # deb822 (URIs: ...) or one-line (deb URL suite ...) sources; the first Debian archive that is not the security one.
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -v '^\s*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
fi
mirror=${mirror:-http://deb.debian.org/debian}
rootfs=$(mktemp -d /tmp/partita-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
echo "debootstrap bookworm from $mirror into $rootfs"
debootstrap --variant=minbase --include=openjdk-17-jre-headless,curl,ca-certificates \
    bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || { tail -20 "$rootfs.log"; exit 1; }
rm -f "$rootfs.log"
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/tmp/*
tar -C "$rootfs" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    - "$image"
echo "base image $image built"

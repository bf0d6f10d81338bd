#!/usr/bin/env bash
# scripts/test-container-image/build.sh - the small OCI image the container driver's tests run,
# as a root file system tarball that tests `podman import` (no registry): busybox-static for
# /bin/sh and the usual commands, /etc/passwd with root, nothing else (the agent supplies SSH).
#
# Usage: scripts/test-container-image/build.sh [OUT_DIR]  (default <repo>/.cache/test-container-image)
# Output: OUT_DIR/rootfs.tar   Idempotent: exits at once when built by this same script.
set -euo pipefail
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT_DIR="${1:-$REPO_DIR/.cache/test-container-image}"
HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
[ -s "$OUT_DIR/rootfs.tar" ] && grep -qx "$HASH" "$OUT_DIR/builder" 2>/dev/null && exit 0
BUSYBOX="${BUSYBOX:-/bin/busybox}"
[ -x "$BUSYBOX" ] || { echo "needs busybox-static ($BUSYBOX)" >&2; exit 2; }
ROOT="$(mktemp -d)"
trap 'rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT"/{bin,sbin,etc,root,tmp,dev,proc,sys,run,var/log,home}
chmod 1777 "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [ "$applet" = busybox ] || ln -sf busybox "$ROOT/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$ROOT/etc/group"
printf '/bin/sh\n' > "$ROOT/etc/shells"
mkdir -p "$OUT_DIR"
tar --numeric-owner --owner=0 --group=0 -C "$ROOT" -cf "$OUT_DIR/rootfs.tar.tmp" .
mv "$OUT_DIR/rootfs.tar.tmp" "$OUT_DIR/rootfs.tar"
echo "$HASH" > "$OUT_DIR/builder"
echo "built $OUT_DIR/rootfs.tar ($(du -h "$OUT_DIR/rootfs.tar" | cut -f1))"

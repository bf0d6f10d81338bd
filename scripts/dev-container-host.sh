#!/usr/bin/env bash
# scripts/dev-container-host.sh - makes this machine a container host for trying containers
# locally without a GPU (docs/decisions/025): the small test image imported into podman as
# localhost/rentgpu-test:1, two stand-in GPU device nodes (/dev/rentgpu-dev-gpu0 and 1, the
# numbers of /dev/null and /dev/zero) and a CDI spec /etc/cdi/rentgpu-dev.json of kind
# rentgpu.dev/gpu naming them by the fake nvidia-smi's UUIDs and indexes. Needs root and
# scripts/test-prereqs.sh's packages. `--remove` takes the device nodes and the spec away again.
set -euo pipefail
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SPEC=/etc/cdi/rentgpu-dev.json
PODMAN=(podman --runtime runc --cgroup-manager cgroupfs --events-backend file)
[ "$(id -u)" = 0 ] || { echo "run as root (mknod, /etc/cdi)" >&2; exit 2; }
if [ "${1:-}" = --remove ]; then
  rm -f /dev/rentgpu-dev-gpu0 /dev/rentgpu-dev-gpu1 "$SPEC"
  echo "removed the stand-in GPUs and $SPEC"
  exit 0
fi
"$REPO_DIR/scripts/test-container-image/build.sh"
"${PODMAN[@]}" import "$REPO_DIR/.cache/test-container-image/rootfs.tar" localhost/rentgpu-test:1 >/dev/null
for i in 0 1; do
  [ -e "/dev/rentgpu-dev-gpu$i" ] || mknod "/dev/rentgpu-dev-gpu$i" c 1 $((i == 0 ? 3 : 5))
done
mkdir -p /etc/cdi
uuids=(GPU-3c2e38d1-6a2c-4a31-b44b-9d82a8c80735 GPU-9f1b0a55-2d7e-4c1a-8e0f-5b6c7d8e9f01)
devices=""
for i in 0 1; do
  edits="\"containerEdits\":{\"deviceNodes\":[{\"path\":\"/dev/rentgpu-dev-gpu$i\"}]}"
  devices+="${devices:+,}{\"name\":\"$i\",$edits},{\"name\":\"${uuids[$i]}\",$edits}"
done
printf '{"cdiVersion":"0.5.0","kind":"rentgpu.dev/gpu","devices":[%s]}\n' "$devices" > "$SPEC"
echo "container host ready: image localhost/rentgpu-test:1, CDI kind rentgpu.dev/gpu ($SPEC)"

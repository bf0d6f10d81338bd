#!/usr/bin/env bash
# scripts/test-prereqs.sh - the Debian packages `npm test` needs, installed when missing:
#   chromium                       the browser tests (Playwright drives Debian's /usr/bin/chromium)
#   qemu-system-x86 qemu-utils ... the agent's VM tests (scripts/test-guest/build.sh's list)
#   ShellCheck                     the host installer's lint test
#   cloud-init                     the seed tests read the agent's user-data with cloud-init's parser
#   podman runc uidmap ...         the container driver's tests (agent/container/): Podman 4.3 with
#                                  runc (crun refuses cgroup v1 hybrid hosts), CNI's plugins for its
#                                  per-instance networks, iptables for its host rules, catatonit for
#                                  --init; and `containers:` ranges in /etc/subuid and /etc/subgid
#                                  for --userns=auto (added below when missing)
#   docker-registry                a real local registry the container pull test pushes to and pulls from
#   pci.ids                        Debian's PCI id list, which shared/gpu-pci-ids.ts is tested against
#   poppler-utils                  pdftotext: e2e/invoices.spec.ts reads the invoice PDF's totals back
# (scripts/test-image/build.sh installs what the real distribution image is built from.)
# Installs as root, or with sudo when it needs no password; otherwise prints the one command to
# run and exits 2 at once, before any test starts.
set -euo pipefail

# chromium keeps its recommended packages (fonts); the rest are installed without them.
BROWSER=(chromium)
TOOLS=(qemu-system-x86 qemu-utils genisoimage openssh-client busybox-static dropbear-bin kmod cpio
  shellcheck cloud-init pci.ids podman runc uidmap containernetworking-plugins iptables catatonit conmon
  docker-registry poppler-utils)

# --userns=auto takes each container's uid range from the `containers` entries (root only).
subids() {
  local f
  for f in /etc/subuid /etc/subgid; do
    grep -q '^containers:' "$f" 2>/dev/null && continue
    if [ "$(id -u)" = 0 ]; then echo 'containers:2147483647:2147483648' >> "$f"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      echo 'containers:2147483647:2147483648' | sudo -n tee -a "$f" >/dev/null
    fi
  done
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing_of() { local p; for p in "$@"; do installed "$p" || printf '%s\n' "$p"; done; }

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  [ -x /usr/bin/chromium ] && command -v qemu-system-x86_64 >/dev/null && exit 0
  echo "npm test needs Debian's packages (no apt-get here): install the equivalents of ${BROWSER[*]} ${TOOLS[*]}, with Chromium at /usr/bin/chromium." >&2
  exit 2
fi

mapfile -t browser < <(missing_of "${BROWSER[@]}")
mapfile -t tools < <(missing_of "${TOOLS[@]}")
if ((${#browser[@]} + ${#tools[@]} == 0)); then subids; exit 0; fi

command_line=""
((${#browser[@]})) && command_line+="apt-get install -y ${browser[*]}"
((${#browser[@]} && ${#tools[@]})) && command_line+=" && "
((${#tools[@]})) && command_line+="apt-get install -y --no-install-recommends ${tools[*]}"

SUDO=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "npm test needs Debian packages that are missing: run  sudo apt-get update && sudo ${command_line//&& apt-get/&& sudo apt-get}  and then npm test again." >&2
    exit 2
  fi
fi

echo "Installing the Debian packages the tests need: ${browser[*]} ${tools[*]}"
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900)
"${APT[@]}" update -qq
((${#browser[@]})) && "${APT[@]}" install -y -qq "${browser[@]}" >/dev/null
((${#tools[@]})) && "${APT[@]}" install -y -qq --no-install-recommends "${tools[@]}" >/dev/null
[ -x /usr/bin/chromium ] || { echo "chromium was installed but /usr/bin/chromium is missing" >&2; exit 2; }
subids

#!/usr/bin/env bash
# RentGPU host agent installer.
#
#   curl -fsSL --proto '=https' -o rentgpu-install.sh 'https://SERVER/api/providers/agent/download' &&
#     sudo bash rentgpu-install.sh --server 'https://SERVER' --token-stdin <<< 'TOKEN'
#
# Checks the host against the requirements (Ubuntu 22.04+, kernel 5.15+, 32GB RAM, 500GB+
# disk, ports 22 and 5900-5999) and warns about what falls short; downloads the agent and
# checks it against the SHA-256 the server publishes beside it (a mismatch stops here, before
# anything is changed); installs QEMU, OVMF (UEFI firmware) and the OpenSSH client; creates the rentgpu-agent system user (groups kvm and,
# through a udev rule, /dev/vfio/*); installs the agent to /opt/rentgpu-agent/agent.mjs, its
# configuration to /etc/rentgpu-agent/agent.env, the one-time token to a 0600 file the agent
# deletes once enrolled; has the agent fetch and verify the default OS image (the server's
# catalogue names it: Ubuntu 22.04 and its published SHA-256) into the state folder's images/,
# so the first rental does not wait for it (--skip-image leaves that to the agent); and runs
# it as the hardened systemd service rentgpu-agent.service, as that user, never as root
# (docs/decisions/014-a-trustworthy-install.md).
#
# --drivers container (or vm,container) sets the host up for containers too
# (docs/decisions/025-containers-beside-vms.md): AGENT_DRIVERS in agent.env; Podman, runc, CNI's
# plugins, iptables, catatonit, conmon and dropbear; the `containers:` ranges in /etc/subuid and
# /etc/subgid that --userns=auto takes each container's ids from; a look at the NVIDIA Container
# Toolkit and its CDI spec (the installer only says what to run: the toolkit comes from NVIDIA's
# own repository); and the service as root, since rootful Podman needs it (write_unit says why).
#
# This file is static: the server never writes anything into it. The server URL arrives as an
# argument and the token on standard input or in a file (never as an argument: `ps` shows
# arguments to every user); both are checked against strict patterns before they are used.
set -euo pipefail

readonly SERVICE=rentgpu-agent
readonly AGENT_USER=rentgpu-agent
readonly STATE_DIR=/var/lib/rentgpu-agent
readonly TOKEN_FILE="$STATE_DIR/enrol-token"
readonly AGENT_FILE=rentgpu-agent.mjs
readonly SERVER_PATTERN='^https?://([A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(:[0-9]{1,5})?$'
readonly TOKEN_PATTERN='^[A-Za-z0-9_-]{32,128}$'
readonly IMAGES_DIR="$STATE_DIR/images"
readonly CATALOGUE_PATH=/api/providers/agent/images
# QEMU and qemu-img; genisoimage writes cloud-init's seed; ovmf is the UEFI firmware cloud
# images boot with; the OpenSSH client is the agent's readiness probe (a login to the guest).
readonly PACKAGES=(qemu-system-x86 qemu-utils genisoimage ovmf openssh-client)
# The container driver (ADR 025): Podman with runc (crun refuses cgroup v1 hybrid hosts), uidmap,
# CNI's plugins for its per-instance networks, iptables for its host rules, catatonit for --init,
# conmon, dropbear (the SSH server the agent mounts into containers) and the OpenSSH client (its
# readiness probe logs in).
readonly CONTAINER_PACKAGES=(podman runc uidmap containernetworking-plugins iptables catatonit conmon
  dropbear-bin openssh-client)
# --userns=auto takes each container's uids and gids from the `containers` entries in
# /etc/subuid and /etc/subgid (podman-run(1): "Example: containers:2147483647:2147483648"); the
# agent asks 65536 per container, so a range elsewhere must hold at least 64 of them.
readonly SUBID_START=2147483647
readonly SUBID_COUNT=2147483648
readonly SUBID_MIN_COUNT=$((65536 * 64))
# The NVIDIA Container Toolkit release without a known container escape
# (shared/rules/host-readiness.ts MIN_TOOLKIT_VERSION; the test keeps them equal), and the
# command that writes the CDI spec Podman hands GPUs out by.
readonly MIN_TOOLKIT_VERSION=1.17.8
readonly CDI_GENERATE='nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml'
readonly MIN_RAM_GB=32
readonly MIN_DISK_GB=500
readonly MIN_NODE_MAJOR=20

SERVER=''
TOKEN=''
TOKEN_FROM=''
TOKEN_SOURCE_FILE=''
ALLOW_HTTP=0
PREFIX=''
DRY_RUN=0
SKIP_PACKAGES=0
SKIP_IMAGE=0
WARNINGS=0
# The kinds of instance the host runs (AGENT_DRIVERS): vm, container or vm,container.
DRIVERS=''
DRIVERS_GIVEN=0
HAS_VM=1
HAS_CONTAINER=0
# Who the service (and the agent's --fetch-image and --check here) runs as: the agent's own user
# on VM-only hosts, root where containers run (write_unit).
SERVICE_USER="$AGENT_USER"

usage() {
  cat <<'USAGE'
Usage: install.sh --server URL (--token-stdin | --token-file FILE) [options]

  --server URL       the RentGPU server, e.g. https://rentgpu.example (no path)
  --token-stdin      read the one-time enrolment token (provider dashboard, Hosts, Add Host)
                     from standard input, e.g. <<< 'TOKEN'
  --token-file FILE  read the token from FILE instead
  --allow-http       accept an http:// server (a test or development server only)
  --drivers LIST     what the host rents out: vm (QEMU virtual machines, the default), container
                     (Podman containers on the host's NVIDIA driver) or vm,container; a re-run
                     without it keeps the earlier install's choice
  --skip-packages    do not install the packages (QEMU, genisoimage, OVMF and the OpenSSH
                     client; Podman, runc and the rest for containers) with apt-get
  --skip-image       do not fetch the default OS image (Ubuntu 22.04) now; the agent fetches
                     it when a rental first needs it (container-only hosts need none)
  --prefix DIR       install into DIR instead of / (an image or a test): no root needed, no
                     packages, no systemctl
  --dry-run          check the host and print what would be done (and which image would be
                     downloaded, and where); change nothing
  -h, --help         this help

The token is never taken as an argument: every user of the host can read arguments (ps).
USAGE
}

info() { printf '==> %s\n' "$*"; }
# "writing FILE (why)", or in a dry run "would write FILE (why)", and the file is listed at the end.
WOULD_WRITE=()
writing() {
  if ((DRY_RUN)); then
    WOULD_WRITE+=("$1")
    info "would write $*"
  else
    info "writing $*"
  fi
}
warn() {
  WARNINGS=$((WARNINGS + 1))
  printf 'WARNING: %s\n' "$*" >&2
}
die() {
  printf 'ERROR: %s\n' "$*" >&2
  exit 1
}
# Runs a command, or only prints it in a dry run.
run() {
  if ((DRY_RUN)); then
    printf '[dry-run] %s\n' "$*"
  else
    "$@"
  fi
}

parse_args() {
  while (($#)); do
    case "$1" in
      --server)
        (($# >= 2)) || die "--server needs a value"
        SERVER="$2"
        shift 2
        ;;
      --token | --token=*)
        die "the token is not taken as an argument (every user of the host sees arguments in ps): pass it on standard input with --token-stdin <<< 'TOKEN', or in a file with --token-file FILE"
        ;;
      --token-stdin)
        TOKEN_FROM='stdin'
        shift
        ;;
      --token-file)
        (($# >= 2)) || die "--token-file needs a value"
        TOKEN_FROM='file'
        TOKEN_SOURCE_FILE="$2"
        shift 2
        ;;
      --allow-http)
        ALLOW_HTTP=1
        shift
        ;;
      --prefix)
        (($# >= 2)) || die "--prefix needs a value"
        PREFIX="$2"
        shift 2
        ;;
      --dry-run)
        DRY_RUN=1
        shift
        ;;
      --skip-packages)
        SKIP_PACKAGES=1
        shift
        ;;
      --skip-image)
        SKIP_IMAGE=1
        shift
        ;;
      --drivers)
        (($# >= 2)) || die "--drivers needs a value: vm, container or vm,container"
        DRIVERS="$2"
        DRIVERS_GIVEN=1
        shift 2
        ;;
      --drivers=*)
        DRIVERS="${1#--drivers=}"
        DRIVERS_GIVEN=1
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *)
        usage >&2
        die "unknown argument: $1"
        ;;
    esac
  done
  [[ -n "$SERVER" ]] || die "--server is required (the address of the RentGPU server)"
  [[ -n "$TOKEN_FROM" ]] ||
    die "--token-stdin or --token-file is required (add a host on the provider dashboard to get a token)"
  SERVER="${SERVER%/}"
  [[ "$SERVER" =~ $SERVER_PATTERN ]] ||
    die "--server must be https://host[:port] without a path, e.g. https://rentgpu.example"
  if [[ "$SERVER" == http://* ]] && ((!ALLOW_HTTP)); then
    die "--server must be https:// (the agent and its checksum travel over it); --allow-http accepts http:// for a test server"
  fi
  read_token
  if [[ -n "$PREFIX" ]]; then
    [[ "$PREFIX" == /* ]] || die "--prefix must be an absolute path"
    PREFIX="${PREFIX%/}"
  fi
  choose_drivers
}

# DRIVERS as the agent reads AGENT_DRIVERS (agent/env.ts): vm and/or container, comma-separated,
# in any order, written back as vm, container or vm,container. Without --drivers: the earlier
# install's choice (a re-run, e.g. with a new token, does not turn containers off), else vm.
choose_drivers() {
  local given="$DRIVERS"
  if ((!DRIVERS_GIVEN)); then
    local env_file="${PREFIX}/etc/rentgpu-agent/agent.env" line=''
    if [[ -r "$env_file" ]]; then
      while IFS= read -r line; do
        if [[ "$line" == AGENT_DRIVERS=* ]]; then given="${line#AGENT_DRIVERS=}"; fi
      done <"$env_file"
    fi
    if [[ -n "$given" ]] && parse_drivers "$given"; then
      info "AGENT_DRIVERS=$DRIVERS, as installed before (--drivers changes it)"
      return
    fi
    given=vm
  fi
  parse_drivers "$given" ||
    die "--drivers must be vm, container or vm,container (got '$given')"
}

parse_drivers() {
  local -a kinds
  local kind
  HAS_VM=0
  HAS_CONTAINER=0
  [[ "$1" =~ ^[a-z]+(,[a-z]+)*$ ]] || return 1
  IFS=, read -r -a kinds <<<"$1"
  for kind in "${kinds[@]}"; do
    case "$kind" in
      vm) HAS_VM=1 ;;
      container) HAS_CONTAINER=1 ;;
      *) return 1 ;;
    esac
  done
  if ((HAS_VM && HAS_CONTAINER)); then
    DRIVERS=vm,container
  elif ((HAS_CONTAINER)); then
    DRIVERS=container
  else
    DRIVERS=vm
  fi
  if ((HAS_CONTAINER)); then SERVICE_USER=root; else SERVICE_USER="$AGENT_USER"; fi
}

# The token, from standard input or a file; only builtins touch it (no command's arguments).
read_token() {
  local line=''
  if [[ "$TOKEN_FROM" == file ]]; then
    [[ -r "$TOKEN_SOURCE_FILE" ]] || die "cannot read the token file $TOKEN_SOURCE_FILE"
    IFS= read -r line <"$TOKEN_SOURCE_FILE" || true
  else
    [[ -t 0 ]] && printf 'Enrolment token: ' >&2
    IFS= read -r -s line || true
    [[ -t 0 ]] && printf '\n' >&2
  fi
  line="${line%$'\r'}"
  TOKEN="$line"
  [[ -n "$TOKEN" ]] || die "no token on ${TOKEN_FROM/stdin/standard input} (add a host on the provider dashboard to get one)"
  [[ "$TOKEN" =~ $TOKEN_PATTERN ]] ||
    die "the token must be 32 to 128 letters, digits, '-' or '_' (copy it from the provider dashboard)"
}

# 0 when version $1 >= $2 (dotted numbers).
version_at_least() {
  local IFS=.
  local -a have want
  read -r -a have <<<"$1"
  read -r -a want <<<"$2"
  local i
  for ((i = 0; i < ${#want[@]}; i++)); do
    local h="${have[i]:-0}" w="${want[i]:-0}"
    h="${h%%[!0-9]*}"
    w="${w%%[!0-9]*}"
    ((10#${h:-0} > 10#${w:-0})) && return 0
    ((10#${h:-0} < 10#${w:-0})) && return 1
  done
  return 0
}

check_tools() {
  local missing=()
  local tool
  for tool in curl install mkdir chmod uname df awk mktemp sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [[ -z "$PREFIX" ]] && ((!DRY_RUN)); then
    for tool in systemctl getent useradd usermod groupadd chown runuser; do
      command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
    done
  fi
  ((${#missing[@]} == 0)) || die "required tools missing: ${missing[*]}"
  if [[ -z "$PREFIX" ]] && ((!DRY_RUN)) && ((EUID != 0)); then
    die "run the installer as root (sudo bash rentgpu-install.sh ...), or use --dry-run to only check the host"
  fi
}

check_os() {
  local id='' version=''
  if [[ -r /etc/os-release ]]; then
    id="$(awk -F= '$1 == "ID" { gsub(/"/, "", $2); print $2 }' /etc/os-release)"
    version="$(awk -F= '$1 == "VERSION_ID" { gsub(/"/, "", $2); print $2 }' /etc/os-release)"
  fi
  if [[ "$id" != ubuntu ]]; then
    warn "operating system is '${id:-unknown}'; Ubuntu 22.04+ is required"
  elif ! version_at_least "$version" 22.04; then
    warn "Ubuntu $version found; Ubuntu 22.04+ is required"
  else
    info "Ubuntu $version"
  fi
  local kernel
  kernel="$(uname -r)"
  if version_at_least "${kernel%%-*}" 5.15; then
    info "Linux kernel $kernel"
  else
    warn "Linux kernel $kernel found; kernel 5.15+ is required (KVM with GPU passthrough)"
  fi
  if ((!HAS_VM)); then
    info "no virtual machines on this host (--drivers $DRIVERS): KVM is not needed"
    return
  fi
  # /dev/kvm alone proves nothing (a paravirtual kvm_pvm provides one that hangs stock guests):
  # the agent needs the hardware module behind it. Whether the agent's user can open it, and
  # the rest of what a VM needs, is the agent's own --check (check_readiness below).
  local kvm_module=''
  if [[ -d /sys/module/kvm_intel ]]; then
    kvm_module=kvm_intel
  elif [[ -d /sys/module/kvm_amd ]]; then
    kvm_module=kvm_amd
  fi
  local node_note=''
  if [[ -e /dev/kvm ]]; then node_note=' (/dev/kvm exists, but no hardware module backs it)'; fi
  if [[ -z "$kvm_module" ]]; then
    warn "no hardware virtualisation: neither kvm_intel nor kvm_amd is loaded$node_note; enable VT-x/AMD-V in the firmware and load the module (modprobe kvm_intel or kvm_amd)"
  elif [[ ! -e /dev/kvm ]]; then
    warn "$kvm_module is loaded but /dev/kvm is missing: reload the module or reboot"
  else
    info "hardware virtualisation: $kvm_module loaded, /dev/kvm present"
  fi
}

check_resources() {
  local mem_kb ram_gb
  mem_kb="$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo 2>/dev/null || true)"
  ram_gb=$(((${mem_kb:-0} + 524288) / 1048576))
  # A 32GB machine reports a little less than 32 GiB (firmware and kernel reserve some).
  if ((${mem_kb:-0} < (MIN_RAM_GB - 2) * 1048576)); then
    warn "${ram_gb}GB RAM found; 32GB RAM minimum is required"
  else
    info "${ram_gb}GB RAM"
  fi
  local dir="${PREFIX}/var/lib"
  while [[ ! -d "$dir" ]]; do dir="$(dirname "$dir")"; done
  local free_kb free_gb
  free_kb="$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')"
  free_gb=$((${free_kb:-0} / 1000000))
  if ((free_gb < MIN_DISK_GB)); then
    warn "${free_gb}GB free under $dir; 500GB+ SSD is required for renters' virtual machine disks"
  else
    info "${free_gb}GB free under $dir"
  fi
}

check_ports() {
  if ! command -v ss >/dev/null 2>&1; then
    warn "cannot check ports (no 'ss'): ports 22 and 5900-5999 must be open to renters"
    return
  fi
  local listening busy=()
  listening="$(ss -Hltn 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' | sort -un)"
  local port
  for port in $listening; do
    if ((port >= 5900 && port <= 5999)); then busy+=("$port"); fi
  done
  if ((!HAS_VM)); then
    :
  elif ((${#busy[@]})); then
    warn "ports ${busy[*]} are in use; the agent needs 5900-5999 for virtual machine consoles (VNC)"
  else
    info "ports 5900-5999 are free"
  fi
  if ((HAS_VM && HAS_CONTAINER)); then
    info "make sure your firewall lets renters reach ports 22 and 5900-5999 (and the agent's SSH ports, 22000-22999 for VMs and 23000-23999 for containers by default)"
  elif ((HAS_CONTAINER)); then
    info "make sure your firewall lets renters reach port 22 (and the agent's SSH ports for containers, 23000-23999 by default)"
  else
    info "make sure your firewall lets renters reach ports 22 and 5900-5999 (and the agent's SSH ports, 22000-22999 by default)"
  fi
}

NODE_BIN=''
check_node() {
  NODE_BIN="$(command -v node 2>/dev/null || true)"
  local how="install Node.js $MIN_NODE_MAJOR or newer, e.g.: curl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash - && sudo apt-get install -y nodejs"
  if [[ -z "$NODE_BIN" ]]; then
    warn "Node.js is not installed; the agent needs Node.js $MIN_NODE_MAJOR+. $how"
    NODE_BIN=/usr/bin/node
    return
  fi
  local version
  version="$("$NODE_BIN" -v 2>/dev/null || echo v0)"
  version="${version#v}"
  if ((10#${version%%.*} < MIN_NODE_MAJOR)); then
    warn "Node.js $version found; the agent needs Node.js $MIN_NODE_MAJOR+. $how"
  else
    info "Node.js $version ($NODE_BIN)"
  fi
  case "$NODE_BIN" in
    /home/* | /root/*)
      warn "Node.js is under a home folder ($NODE_BIN), which the service cannot read (ProtectHome); install it system-wide. $how"
      ;;
  esac
}

# The packages the host's drivers need: QEMU's for VMs, Podman's for containers, both for both.
host_packages() {
  local -a list=()
  ((HAS_VM)) && list+=("${PACKAGES[@]}")
  local p
  if ((HAS_CONTAINER)); then
    for p in "${CONTAINER_PACKAGES[@]}"; do
      [[ " ${list[*]} " == *" $p "* ]] || list+=("$p")
    done
  fi
  printf '%s\n' "${list[@]}"
}

install_packages() {
  local -a packages
  mapfile -t packages < <(host_packages)
  if ((SKIP_PACKAGES)) || [[ -n "$PREFIX" ]]; then
    info "skipping packages (${packages[*]})"
    return
  fi
  if [[ ! -f /etc/debian_version ]] || ! command -v apt-get >/dev/null 2>&1; then
    local what=''
    ((HAS_VM)) && what='QEMU (qemu-system-x86_64, qemu-img), genisoimage, OVMF (UEFI firmware), '
    ((HAS_CONTAINER)) && what+='Podman with runc, newuidmap, the CNI plugins, iptables, catatonit, conmon, dropbear, '
    warn "not Debian or Ubuntu: install ${what}the OpenSSH client (ssh, ssh-keygen) yourself (Debian's names: ${packages[*]})"
    return
  fi
  info "installing ${packages[*]}"
  run env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" </dev/null
}

# The `containers:` ranges --userns=auto allocates each container's ids from (rootful Podman;
# podman-run(1) --userns). Added once, when the file has none; an existing one is kept. The
# documented range (2147483647, 2147483648 ids: up to the highest valid id) unless it overlaps a
# range already in the file; then the ids above every range there, if enough are left.
# shellcheck disable=SC2016 # awk's own $2 and $3
readonly SUBID_RANGE_AWK='
BEGIN { FS = ":"; last = 4294967295 }
$1 == "containers" { found = 1 }
NF >= 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ {
  s = $2 + 0; e = s + $3
  if (s < start + count && e > start) overlap = 1
  if (e > top) top = e
}
END {
  if (found) exit 0
  if (!overlap) { printf "containers:%.0f:%.0f\n", start, count; exit 0 }
  if (last - top >= min) { printf "containers:%.0f:%.0f\n", top, last - top; exit 0 }
  exit 1
}'

setup_subids() {
  ((HAS_CONTAINER)) || return 0
  local file line tmp
  for file in "${PREFIX}/etc/subuid" "${PREFIX}/etc/subgid"; do
    if [[ -e "$file" && ! -r "$file" ]]; then
      warn "cannot read $file to check its containers: range (--userns=auto needs one)"
      continue
    fi
    if ! line="$( (if [[ -e "$file" ]]; then cat "$file"; fi) |
      awk -v start="$SUBID_START" -v count="$SUBID_COUNT" -v min="$SUBID_MIN_COUNT" "$SUBID_RANGE_AWK")"; then
      warn "$file leaves no free range of $SUBID_MIN_COUNT ids for containers (--userns=auto): add a line containers:START:COUNT that overlaps no other range yourself"
      continue
    fi
    if [[ -z "$line" ]]; then
      info "$file has a containers: range (--userns=auto)"
      continue
    fi
    if ((DRY_RUN)); then
      WOULD_WRITE+=("$file")
      info "would add $line to $file (the ids --userns=auto gives containers)"
      continue
    fi
    info "adding $line to $file (the ids --userns=auto gives containers)"
    mkdir -p "${file%/*}"
    tmp="$(mktemp "${file%/*}/.${file##*/}.XXXXXX")"
    # Rewritten through awk so that a last line without its newline is ended first.
    if [[ -e "$file" ]]; then awk '{ print }' "$file" >"$tmp"; fi
    printf '%s\n' "$line" >>"$tmp"
    chmod 0644 "$tmp"
    mv -f "$tmp" "$file"
  done
}

# 0 when a CDI spec (YAML as nvidia-ctk writes it, or JSON) is of kind nvidia.com/gpu.
readonly CDI_GPU_KIND_AWK='
/^kind:[ \t]*["\047]?nvidia\.com\/gpu["\047]?[ \t]*$/ { found = 1 }
/"kind"[ \t]*:[ \t]*"nvidia\.com\/gpu"/ { found = 1 }
END { exit !found }'

# The NVIDIA Container Toolkit and the CDI spec Podman hands GPUs out by. Only looked at and
# reported: the toolkit comes from NVIDIA's own repository, not Debian's or Ubuntu's, so the
# installer never fetches it; the agent's --check below judges its version.
check_container_toolkit() {
  local version=''
  if ! command -v nvidia-ctk >/dev/null 2>&1; then
    warn "the NVIDIA Container Toolkit is not installed (no nvidia-ctk): containers cannot be given GPUs. Install nvidia-container-toolkit $MIN_TOOLKIT_VERSION or later from NVIDIA's repository (https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html), then run: sudo $CDI_GENERATE"
    return
  fi
  version="$(nvidia-ctk --version 2>/dev/null </dev/null | awk 'NR == 1')" || version=''
  info "NVIDIA Container Toolkit: ${version:-its version could not be read} (the agent's --check below refuses releases before $MIN_TOOLKIT_VERSION)"
  local dir file spec=''
  for dir in "${PREFIX}/etc/cdi" "${PREFIX}/var/run/cdi"; do
    [[ -d "$dir" ]] || continue
    for file in "$dir"/*.yaml "$dir"/*.yml "$dir"/*.json; do
      [[ -f "$file" ]] || continue
      if awk "$CDI_GPU_KIND_AWK" "$file"; then
        spec="$file"
        break 2
      fi
    done
  done
  if [[ -n "$spec" ]]; then
    info "CDI spec for the GPUs: $spec (run $CDI_GENERATE again after adding, moving or rebinding GPUs)"
  else
    warn "no CDI spec names the GPUs (kind nvidia.com/gpu in /etc/cdi or /var/run/cdi): Podman cannot hand them to containers. Run: sudo $CDI_GENERATE"
  fi
}

WORK=''
cleanup() {
  if [[ -n "$WORK" ]]; then rm -rf -- "$WORK"; fi
}

# Downloads the agent and the SHA-256 the server publishes for it, into a private temporary
# folder, and stops unless they match. Runs before anything is installed or changed.
fetch_agent() {
  local url="$SERVER/api/providers/agent/download-script"
  local proto='=https'
  ((ALLOW_HTTP)) && proto='=https,http'
  info "downloading the agent from $url"
  if ((DRY_RUN)); then
    printf '[dry-run] curl -fsSL %s.sha256 and %s, then sha256sum --check\n' "$url" "$url"
    return
  fi
  WORK="$(mktemp -d)"
  trap cleanup EXIT
  if ! curl -fsSL --proto "$proto" --retry 3 "$url.sha256" -o "$WORK/agent.sha256" </dev/null; then
    die "could not download the agent's checksum from $url.sha256; nothing was installed"
  fi
  local expected=''
  read -r expected _ <"$WORK/agent.sha256" || true
  [[ "$expected" =~ ^[0-9a-f]{64}$ ]] ||
    die "the server's checksum for the agent is not a SHA-256 ($url.sha256); nothing was installed"
  if ! curl -fsSL --proto "$proto" --retry 3 "$url" -o "$WORK/$AGENT_FILE" </dev/null; then
    die "could not download the agent from $url; nothing was installed"
  fi
  [[ -s "$WORK/$AGENT_FILE" ]] || die "the server sent an empty agent; nothing was installed"
  local actual
  actual="$(sha256sum "$WORK/$AGENT_FILE" | awk '{ print $1 }')"
  if [[ "$actual" != "$expected" ]]; then
    die "the agent downloaded from $url does not match its published SHA-256 (expected $expected, got $actual): it was changed or cut short on the way; nothing was installed. Try again; if it persists, tell the server's operator"
  fi
  info "agent checksum verified (SHA-256 $actual)"
}

# The agent's own system user: no login, no home of its own beyond the state folder, groups
# kvm (/dev/kvm) and, through a udev rule, access to /dev/vfio/* for GPU passthrough.
create_user() {
  if ((!HAS_VM)); then
    info "no $AGENT_USER user: it is QEMU's, and this host runs containers only"
    return
  fi
  if [[ -n "$PREFIX" ]]; then
    info "skipping the $AGENT_USER user (installing under $PREFIX)"
    return
  fi
  if ! getent group kvm >/dev/null 2>&1; then
    run groupadd --system kvm
  fi
  if getent passwd "$AGENT_USER" >/dev/null 2>&1; then
    info "system user $AGENT_USER exists"
  else
    info "creating system user $AGENT_USER"
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment 'RentGPU host agent' "$AGENT_USER"
  fi
  run usermod --append --groups kvm "$AGENT_USER"
}

write_udev_rule() {
  ((HAS_VM)) || return 0
  local dir="${PREFIX}/etc/udev/rules.d"
  local file="$dir/60-rentgpu-vfio.rules"
  writing "$file" "(/dev/vfio/* to group $AGENT_USER, for GPU passthrough)"
  run mkdir -p "$dir"
  if ((DRY_RUN)); then return; fi
  cat >"$file" <<RULES
# RentGPU: the agent's user opens VFIO groups to pass GPUs through to virtual machines.
SUBSYSTEM=="vfio", GROUP="$AGENT_USER", MODE="0660"
RULES
  chmod 0644 "$file"
  if [[ -z "$PREFIX" ]] && command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload-rules || true
    udevadm trigger --subsystem-match=vfio || true
  fi
}

install_agent() {
  local dest="${PREFIX}/opt/rentgpu-agent"
  writing "$dest/agent.mjs" "(the agent)"
  run install -d -m 0755 "$dest"
  # Owned by root and not writable by the agent's user: the agent cannot change its own code.
  run install -m 0644 "$WORK/$AGENT_FILE" "$dest/agent.mjs"
}

write_config() {
  local dir="${PREFIX}/etc/rentgpu-agent"
  local file="$dir/agent.env"
  local state="${PREFIX}$STATE_DIR"
  writing "$file" "(mode 0600; systemd reads it)"
  run install -d -m 0700 "$dir"
  run install -d -m 0700 "$state"
  if [[ -z "$PREFIX" ]]; then
    # The state folder is the service's: on a VM host a folder left by an earlier install that
    # ran as root becomes the agent user's; on a container host (root) it becomes root's, so
    # that no other user (QEMU's, after -runas) can swap what the agent mounts into containers.
    run chown -R "$SERVICE_USER:$SERVICE_USER" "$state"
  fi
  if ((DRY_RUN)); then return; fi
  local tmp
  tmp="$(mktemp "$dir/.agent.env.XXXXXX")"
  chmod 0600 "$tmp"
  # The server URL passed the strict pattern above: no quotes, spaces or '$' reach this file.
  cat >"$tmp" <<ENV
# RentGPU host agent (read by rentgpu-agent.service). The one-time token is in
# AGENT_ENROLL_TOKEN_FILE until enrolment; the agent then keeps its credential in
# AGENT_STATE_DIR/credential.json and deletes the token file.
RENTGPU_SERVER_URL=$SERVER
AGENT_ENROLL_TOKEN_FILE=$TOKEN_FILE
AGENT_STATE_DIR=$STATE_DIR
AGENT_DRIVERS=$DRIVERS
AGENT_HEARTBEAT_INTERVAL_MS=30000
AGENT_UPDATE_INTERVAL_MS=60000
ENV
  mv -f "$tmp" "$file"
}

# The token goes to a 0600 file only the agent's user reads; printf is a bash builtin, so the
# token is in no command's arguments.
write_token() {
  local file="${PREFIX}$TOKEN_FILE"
  writing "$file" "(the one-time token, mode 0600; the agent deletes it once enrolled)"
  if ((DRY_RUN)); then return; fi
  local tmp
  tmp="$(mktemp "${PREFIX}$STATE_DIR/.enrol-token.XXXXXX")"
  chmod 0600 "$tmp"
  printf '%s\n' "$TOKEN" >"$tmp"
  if [[ -z "$PREFIX" ]]; then chown "$SERVICE_USER:$SERVICE_USER" "$tmp"; fi
  mv -f "$tmp" "$file"
}

# Reads the catalogue on standard input; prints the default image (ubuntu-22.04, else the
# first with a source: as shared/contracts/images.ts defaultHostImage) in one line.
readonly DESCRIBE_IMAGE_JS='
let text = "";
process.stdin.on("data", (d) => (text += d)).on("end", () => {
  const list = JSON.parse(text);
  const image = list.find((i) => i.name === "ubuntu-22.04" && i.url) || list.find((i) => i.url);
  if (!image) process.exit(1);
  const size = image.sizeBytes ? (image.sizeBytes / 1048576).toFixed(1) + " MiB" : "size not stated";
  const line = image.name + " (" + image.title + ") from " + image.url + " (" + size + "), SHA-256 " + image.sha256;
  console.log(line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ""));
});
'

# What a dry run would download: the server's catalogue is read (reading changes nothing).
describe_image() {
  local url="$SERVER$CATALOGUE_PATH"
  local proto='=https'
  ((ALLOW_HTTP)) && proto='=https,http'
  local described=''
  if [[ -x "$NODE_BIN" ]]; then
    described="$(curl -fsSL --proto "$proto" --max-time 30 "$url" </dev/null 2>/dev/null |
      "$NODE_BIN" -e "$DESCRIBE_IMAGE_JS" 2>/dev/null)" || described=''
  fi
  if [[ -n "$described" ]]; then
    info "would download the default OS image $described"
  else
    info "would download the default OS image the server's catalogue names ($url)"
  fi
  info "into ${PREFIX}$IMAGES_DIR/, verified against its SHA-256 before anything boots it"
}

# The default OS image, fetched now so the first rental does not wait for it. The agent itself
# does it (--fetch-image: the server's catalogue, the same resumable download, SHA-256 check
# and cache the service uses), as the service's user, so the service finds it held. A failure
# stops the install before the service is set up: the installer can simply be run again.
fetch_image() {
  if ((!HAS_VM)); then
    info "no OS image: it is for VMs, and containers bring their own"
    return
  fi
  if ((SKIP_IMAGE)); then
    info "skipping the default OS image (--skip-image): the agent fetches it when a rental first needs it"
    return
  fi
  ((DRY_RUN)) && describe_image
  if ((!DRY_RUN)) && [[ ! -x "$NODE_BIN" ]]; then
    die "Node.js is needed to fetch the default OS image (and to run the agent); install it and run the installer again, or add --skip-image"
  fi
  local -a cmd=(env -i "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    "RENTGPU_SERVER_URL=$SERVER" "AGENT_STATE_DIR=${PREFIX}$STATE_DIR"
    "$NODE_BIN" "${PREFIX}/opt/rentgpu-agent/agent.mjs" --fetch-image)
  if [[ -z "$PREFIX" && "$SERVICE_USER" != root ]]; then
    cmd=(runuser -u "$SERVICE_USER" -- "${cmd[@]}")
  fi
  ((DRY_RUN)) || info "fetching the default OS image into ${PREFIX}$IMAGES_DIR/ (this can take a few minutes)"
  if ! (cd / && run "${cmd[@]}"); then
    die "the default OS image could not be fetched and verified (the reason is above); the agent is installed but not started. Run the installer again, or add --skip-image to start without it (the agent then fetches it when a rental first needs it)"
  fi
}

# The agent's own readiness check (`--check`, docs/decisions/021): the rules the server applies
# to every heartbeat — hardware virtualisation the agent's user can open, the NVIDIA driver,
# IOMMU and vfio-pci per GPU, the OS image, free disk; for containers Podman, a trial container,
# the CDI spec and the toolkit's version — printed here, so the provider hears at install time
# what the dashboard will say. With the host's AGENT_DRIVERS, as the service's user, and on a
# container host with no_new_privs as the service has it. Answers 0 when ready, 3 when not, 2
# when it could not run.
readiness_of() {
  local agent="$1"
  local -a cmd=(env -i "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    "RENTGPU_SERVER_URL=$SERVER" "AGENT_STATE_DIR=${PREFIX}$STATE_DIR" "AGENT_DRIVERS=$DRIVERS"
    "$NODE_BIN" "$agent" --check)
  if [[ -z "$PREFIX" && "$SERVICE_USER" != root ]]; then
    if ((!DRY_RUN)) || { ((EUID == 0)) && getent passwd "$SERVICE_USER" >/dev/null 2>&1; }; then
      cmd=(runuser -u "$SERVICE_USER" -- "${cmd[@]}")
    else
      dry_run_check_note
    fi
  fi
  if ((HAS_CONTAINER)) && command -v setpriv >/dev/null 2>&1; then
    cmd=(setpriv --no-new-privs -- "${cmd[@]}")
  fi
  local out code=0
  out="$(cd / && "${cmd[@]}" 2>&1)" || code=$?
  printf '%s\n' "$out" | sed 's/^/    /'
  if ((code == 0)); then return 0; fi
  if ((code == 1)) && [[ "$out" == host:* ]]; then return 3; fi
  return 2
}

# Who a dry run's --check runs as when it cannot be the service's user: on a new host that user
# does not exist yet (the install creates it, create_user), and only root can switch to it. The
# check then runs as whoever runs the installer (--check reads and creates nothing), and says so:
# the only facts that depend on the user are whether it may open /dev/kvm and /dev/vfio/*, which
# the install grants the service's user (group kvm, the udev rule) and checks again as that user.
dry_run_check_note() {
  local me
  me="$(id -un 2>/dev/null || printf 'uid %s' "$EUID")"
  if ((EUID == 0)); then
    info "the $SERVICE_USER user does not exist yet (the install creates it, in group kvm): checking as $me instead; the install checks again as $SERVICE_USER"
  else
    info "not run as root, so not as the $SERVICE_USER user: checking as $me, whose access to /dev/kvm and /dev/vfio/* may differ; the install checks again as $SERVICE_USER"
  fi
}

# A dry run fetches and verifies the agent for real into the temporary work folder (removed at
# exit) to run its --check; nothing is installed.
dry_run_readiness() {
  local DRY_RUN=0
  fetch_agent >/dev/null || return 2
  DRY_RUN=1
  readiness_of "$WORK/$AGENT_FILE"
}

# Not ready is a warning, not a failure: the host enrols, shows "not ready" with the reason on
# the dashboard and takes no rentals until it is fixed. A dry run fetches and verifies the agent
# into a temporary folder to run it (nothing is installed).
check_readiness() {
  if [[ ! -x "$NODE_BIN" ]]; then
    warn "Node.js is missing: the host's readiness (KVM, NVIDIA driver, IOMMU, vfio-pci) could not be checked"
    return
  fi
  info "checking what this host can run (the agent's --check)"
  local code=0
  if ((DRY_RUN)); then
    dry_run_readiness || code=$?
  else
    readiness_of "${PREFIX}/opt/rentgpu-agent/agent.mjs" || code=$?
  fi
  local what=VMs
  ((HAS_CONTAINER)) && what=containers
  ((HAS_VM && HAS_CONTAINER)) && what='VMs and containers'
  if ((code == 3)); then
    warn "this host is not ready to serve $what (the reasons and fixes are above); it will show \"not ready\" on your dashboard and take no rentals until they are fixed"
  elif ((code != 0)); then
    warn "the agent's readiness check did not run (see above)"
  else
    info "this host is ready to serve $what"
  fi
}

write_unit() {
  local dir="${PREFIX}/etc/systemd/system"
  local file="$dir/$SERVICE.service"
  if ((HAS_CONTAINER)); then
    writing "$file" "(the service, as root: rootful Podman for containers)"
  else
    writing "$file" "(the service, as $AGENT_USER)"
  fi
  run mkdir -p "$dir"
  if ((DRY_RUN)); then
    unit_text | sed 's/^/    /'
    return
  fi
  unit_text >"$file"
  chmod 0644 "$file"
}

unit_text() {
  if ((HAS_CONTAINER)); then
    container_unit_text
  else
    vm_unit_text
  fi
}

vm_unit_text() {
  # KillMode=process: virtual machines (QEMU, daemonized) keep running while the agent
  # restarts or is upgraded; the agent adopts them again when it starts.
  # The agent and every QEMU it starts run as $AGENT_USER, never root, with no capabilities;
  # the file system is read-only to them except the state folder. LimitMEMLOCK: VFIO pins a
  # guest's memory. No MemoryDenyWriteExecute: Node's JIT and QEMU's TCG need it. No
  # ProtectClock or PrivateDevices: both restrict devices, and QEMU needs /dev/kvm, /dev/vfio/*
  # and nvidia-smi the NVIDIA devices.
  cat <<UNIT
[Unit]
Description=RentGPU host agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=$AGENT_USER
Group=$AGENT_USER
SupplementaryGroups=kvm
EnvironmentFile=/etc/rentgpu-agent/agent.env
ExecStart=$NODE_BIN /opt/rentgpu-agent/agent.mjs
Restart=always
RestartSec=5
KillMode=process
UMask=0077
LimitMEMLOCK=infinity
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ReadWritePaths=$STATE_DIR
ProtectHome=yes
PrivateTmp=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectHostname=yes
RestrictSUIDSGID=yes
RestrictRealtime=yes
RestrictNamespaces=yes
LockPersonality=yes
SystemCallArchitectures=native

[Install]
WantedBy=multi-user.target
UNIT
}

# A host that runs containers runs the agent as root (docs/decisions/025, "Hosts that run
# containers"). The container driver is rootful Podman: it creates CNI bridges and network
# namespaces, puts iptables rules on the host's INPUT chain, mounts each container's root file
# system, writes uid_map/gid_map for --userns=auto from the `containers:` ranges, and bind-mounts
# the CDI spec's device nodes. A rootless Podman under rentgpu-agent has no CNI bridges or host
# iptables rules and only that one user's subordinate ids. VMs on such a host still drop to
# $AGENT_USER (QEMU's -runas, agent/create-driver.ts).
#
# What a renter's container is held by is Podman's, per container: a user namespace (its root is
# an unprivileged host uid from the containers: range), no-new-privileges, Podman's default
# seccomp profile and capabilities, only the CDI devices of the rented GPUs, an isolated network.
#
# Of the VM unit's hardening only this fits ("tried": Podman 4.3.1, runc, CNI on Debian 12):
# - NoNewPrivileges=yes: rootful Podman needs no setuid helper (runc writes the id maps itself as
#   root: tried, a run with newuidmap and newgidmap replaced by /bin/false works, and so under
#   no_new_privs), and every container has no_new_privs anyway. (AppArmor lets an unconfined
#   task under no_new_privs enter a container's profile.)
# - KillMode=process: containers (their conmon) outlive an agent restart; the agent adopts them.
# - UMask=0022, not 0077: what the agent mounts into containers (its dropbear, libraries and
#   entrypoint under the state folder, each instance's authorized_keys) is read there by the
#   container's root, an unprivileged host uid; under 0077 the agent's mkdir and writeFile make
#   them root-only and SSH fails (tried). The state folder itself stays 0700 and root's.
# Not used, and why:
# - ProtectSystem, ProtectHome, PrivateTmp, ReadWritePaths, ProtectKernel*, ProtectControlGroups,
#   PrivateDevices: each gives the service a mount namespace of its own, whose mounts do not
#   reach the host's. Podman mounts each container's root file system and its network namespace
#   (/run/netns) there; after a restart the agent is in a new namespace and Podman no longer
#   finds them: tried, a stop then fails to tear the network down ("unknown FS magic" on the
#   netns file) and leaves its IP lease and NAT rules behind.
# - User=, CapabilityBoundingSet=: Podman needs root's capabilities, and a container's capability
#   set is bounded by the service's.
# - RestrictSUIDSGID, RestrictNamespaces, RestrictRealtime, LockPersonality, ProtectHostname,
#   SystemCallArchitectures, ProtectClock: seccomp filters that every container would inherit
#   (systemd.exec(5); not tried). RestrictSUIDSGID would stop image pulls (layers hold setuid
#   files: sudo, passwd), ProtectHostname runc's sethostname, RestrictNamespaces Podman itself;
#   the rest would change what renters' programs can do beyond the documented isolation.
container_unit_text() {
  cat <<UNIT
[Unit]
Description=RentGPU host agent
After=network-online.target
Wants=network-online.target

[Service]
# Root: rootful Podman for containers (docs/decisions/025, "Hosts that run containers").
Type=simple
EnvironmentFile=/etc/rentgpu-agent/agent.env
ExecStart=$NODE_BIN /opt/rentgpu-agent/agent.mjs
Restart=always
RestartSec=5
KillMode=process
UMask=0022
LimitMEMLOCK=infinity
NoNewPrivileges=yes

[Install]
WantedBy=multi-user.target
UNIT
}

start_service() {
  if [[ -n "$PREFIX" ]]; then
    info "installed under $PREFIX; enable it there with: systemctl enable $SERVICE"
    return
  fi
  info "starting $SERVICE"
  run systemctl daemon-reload
  run systemctl enable "$SERVICE"
  run systemctl restart "$SERVICE"
  if ((DRY_RUN)); then return; fi
  sleep 3
  if systemctl is-active --quiet "$SERVICE"; then
    info "$SERVICE is running; it enrols with the server and appears online on your dashboard"
  else
    warn "$SERVICE is not running; see: journalctl -u $SERVICE -n 50"
  fi
  info "follow its log with: journalctl -u $SERVICE -f"
}

main() {
  parse_args "$@"
  ((DRY_RUN)) && info "dry run: nothing is changed"
  check_tools
  info "checking the host"
  check_os
  check_resources
  check_ports
  check_node
  if ((HAS_CONTAINER)); then check_container_toolkit; fi
  fetch_agent
  install_packages
  create_user
  setup_subids
  install_agent
  write_config
  write_token
  fetch_image
  check_readiness
  write_udev_rule
  write_unit
  start_service
  if ((DRY_RUN)) && ((${#WOULD_WRITE[@]})); then
    info "dry run: the files it would write:"
    printf '    %s\n' "${WOULD_WRITE[@]}"
  fi
  if ((WARNINGS)); then
    info "done, with $WARNINGS warning(s) above"
  else
    info "done"
  fi
}

# Called last, so that with `curl ... | bash` the whole script has been read before it runs.
main "$@"

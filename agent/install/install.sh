#!/usr/bin/env bash
# RentGPU host agent installer.
#
#   curl -fsSL 'https://SERVER/api/providers/agent/download' | sudo bash -s -- \
#     --server 'https://SERVER' --token 'TOKEN'
#
# Checks the host against the requirements (Ubuntu 22.04+, kernel 5.15+, 32GB RAM, 500GB+
# disk, ports 22 and 5900-5999) and warns about what falls short, installs QEMU, downloads the
# agent from the server to /opt/rentgpu-agent/agent.mjs, writes its configuration to
# /etc/rentgpu-agent/agent.env (mode 0600) and runs it as the systemd service
# rentgpu-agent.service, which enrols the host with the one-time token.
#
# This file is static: the server never writes anything into it. The server URL and the token
# arrive as arguments and are checked against strict patterns before they are used.
set -euo pipefail

readonly SERVICE=rentgpu-agent
readonly SERVER_PATTERN='^https?://([A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(:[0-9]{1,5})?$'
readonly TOKEN_PATTERN='^[A-Za-z0-9_-]{32,128}$'
readonly PACKAGES=(qemu-system-x86 qemu-utils genisoimage)
readonly MIN_RAM_GB=32
readonly MIN_DISK_GB=500
readonly MIN_NODE_MAJOR=20

SERVER=''
TOKEN=''
PREFIX=''
DRY_RUN=0
SKIP_PACKAGES=0
WARNINGS=0

usage() {
  cat <<'USAGE'
Usage: install.sh --server URL --token TOKEN [options]

  --server URL       the RentGPU server, e.g. https://rentgpu.example (no path)
  --token TOKEN      the one-time enrolment token from the provider dashboard (Hosts, Add Host)
  --skip-packages    do not install QEMU and genisoimage with apt-get
  --prefix DIR       install into DIR instead of / (an image or a test): no root needed, no
                     packages, no systemctl
  --dry-run          check the host and print what would be done; change nothing
  -h, --help         this help
USAGE
}

info() { printf '==> %s\n' "$*"; }
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
      --token)
        (($# >= 2)) || die "--token needs a value"
        TOKEN="$2"
        shift 2
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
  [[ -n "$TOKEN" ]] || die "--token is required (add a host on the provider dashboard to get one)"
  SERVER="${SERVER%/}"
  [[ "$SERVER" =~ $SERVER_PATTERN ]] ||
    die "--server must be http(s)://host[:port] without a path, e.g. https://rentgpu.example"
  [[ "$TOKEN" =~ $TOKEN_PATTERN ]] ||
    die "--token must be 32 to 128 letters, digits, '-' or '_' (copy it from the provider dashboard)"
  if [[ -n "$PREFIX" ]]; then
    [[ "$PREFIX" == /* ]] || die "--prefix must be an absolute path"
    PREFIX="${PREFIX%/}"
  fi
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
  for tool in curl install mkdir chmod uname df awk; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [[ -z "$PREFIX" ]] && ((!DRY_RUN)); then
    command -v systemctl >/dev/null 2>&1 || missing+=(systemctl)
  fi
  ((${#missing[@]} == 0)) || die "required tools missing: ${missing[*]}"
  if [[ -z "$PREFIX" ]] && ((!DRY_RUN)) && ((EUID != 0)); then
    die "run the installer as root (sudo bash -s -- ...), or use --dry-run to only check the host"
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
  if [[ -e /dev/kvm ]]; then
    info "KVM available (/dev/kvm)"
  else
    warn "/dev/kvm is missing: enable virtualisation (VT-x/AMD-V) in the firmware and load kvm_intel or kvm_amd"
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
  if ((${#busy[@]})); then
    warn "ports ${busy[*]} are in use; the agent needs 5900-5999 for virtual machine consoles (VNC)"
  else
    info "ports 5900-5999 are free"
  fi
  info "make sure your firewall lets renters reach ports 22 and 5900-5999 (and the agent's SSH ports, 22000-22999 by default)"
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
}

install_packages() {
  if ((SKIP_PACKAGES)) || [[ -n "$PREFIX" ]]; then
    info "skipping packages (${PACKAGES[*]})"
    return
  fi
  if [[ ! -f /etc/debian_version ]] || ! command -v apt-get >/dev/null 2>&1; then
    warn "not Debian or Ubuntu: install QEMU (qemu-system-x86_64, qemu-img) and genisoimage yourself"
    return
  fi
  info "installing ${PACKAGES[*]}"
  run env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" </dev/null
}

download_agent() {
  local dest="${PREFIX}/opt/rentgpu-agent"
  local url="$SERVER/api/providers/agent/download-script"
  info "downloading the agent from $url"
  run mkdir -p "$dest"
  if ((DRY_RUN)); then
    printf '[dry-run] curl -fsSL %s -o %s/agent.mjs\n' "$url" "$dest"
    return
  fi
  local tmp
  tmp="$(mktemp "$dest/.agent.XXXXXX")"
  if ! curl -fsSL --proto '=https,http' --retry 3 "$url" -o "$tmp" </dev/null; then
    rm -f "$tmp"
    die "could not download the agent from $url"
  fi
  [[ -s "$tmp" ]] || {
    rm -f "$tmp"
    die "the server sent an empty agent"
  }
  chmod 0644 "$tmp"
  mv -f "$tmp" "$dest/agent.mjs"
}

write_config() {
  local dir="${PREFIX}/etc/rentgpu-agent"
  local file="$dir/agent.env"
  info "writing $file (mode 0600)"
  run install -d -m 0700 "$dir"
  run install -d -m 0700 "${PREFIX}/var/lib/rentgpu-agent"
  if ((DRY_RUN)); then return; fi
  local tmp
  tmp="$(mktemp "$dir/.agent.env.XXXXXX")"
  chmod 0600 "$tmp"
  # The values passed the strict patterns above: no quotes, spaces or '$' can reach this file.
  cat >"$tmp" <<ENV
# RentGPU host agent (read by rentgpu-agent.service). The token is used once, at enrolment;
# the agent then keeps its credential in AGENT_STATE_DIR/credential.json.
RENTGPU_SERVER_URL=$SERVER
AGENT_ENROLL_TOKEN=$TOKEN
AGENT_STATE_DIR=/var/lib/rentgpu-agent
AGENT_HEARTBEAT_INTERVAL_MS=30000
AGENT_UPDATE_INTERVAL_MS=60000
ENV
  mv -f "$tmp" "$file"
}

write_unit() {
  local dir="${PREFIX}/etc/systemd/system"
  local file="$dir/$SERVICE.service"
  info "writing $file"
  run mkdir -p "$dir"
  if ((DRY_RUN)); then return; fi
  # KillMode=process: virtual machines (QEMU, daemonized) keep running while the agent
  # restarts or is upgraded; the agent adopts them again when it starts.
  cat >"$file" <<UNIT
[Unit]
Description=RentGPU host agent
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
EnvironmentFile=/etc/rentgpu-agent/agent.env
ExecStart=$NODE_BIN /opt/rentgpu-agent/agent.mjs
Restart=always
RestartSec=5
KillMode=process

[Install]
WantedBy=multi-user.target
UNIT
  chmod 0644 "$file"
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
  install_packages
  download_agent
  write_config
  write_unit
  start_service
  if ((WARNINGS)); then
    info "done, with $WARNINGS warning(s) above"
  else
    info "done"
  fi
}

# Called last, so that with `curl ... | bash` the whole script has been read before it runs.
main "$@"

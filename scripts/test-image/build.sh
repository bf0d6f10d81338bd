#!/usr/bin/env bash
# scripts/test-image/build.sh - build a real Debian 12 (bookworm) cloud image for tests.
#
# A stand-in for the distribution images providers run (Ubuntu's cloud images), built here from
# Debian packages so CI needs no download from outside the Debian mirror apt already uses:
#   * a GPT disk: an EFI system partition with systemd-boot (kernel + initrd on it) and an ext4
#     root labelled cloudimg-rootfs; it boots from its own disk under UEFI firmware (OVMF), as a
#     downloaded Ubuntu cloud image does, so one firmware path serves both;
#   * linux-image-cloud-amd64, systemd (+ dbus, libpam-systemd: systemctl, hostnamectl and
#     logins work as on a distribution image), the Debian `cloud-init` package (NoCloud datasource among
#     others), openssh-server without host keys (each instance makes its own on first boot),
#     sudo, cloud-guest-utils (growpart: the root partition and file system grow to the disk),
#     ifupdown + isc-dhcp-client (cloud-init's fallback network config: DHCP on the first NIC);
#   * empty /etc/machine-id, no apt lists, no docs, man pages or translations; compressed qcow2.
#   * /etc/cloud/cloud.cfg.d/90-rentgpu-image.cfg, the image's own defaults (a seed overrides them):
#     `locale: C.UTF-8` (Debian minbase has no en_US.UTF-8, cloud-init's default, and making it
#     fails: `cloud-init status` would say error; Ubuntu images have it);
#     `ssh_genkeytypes: [ed25519, ecdsa]` (no RSA host key: generating one takes ~40 s under
#     software emulation, and sshd waits for it); `grub_dpkg: enabled: false` (no GRUB here).
#   * tuned as a provider's cloud image is (every step costs seconds under software emulation):
#     `datasource_list: [NoCloud, None]` (99_rentgpu-datasource.cfg: ds-identify and cloud-init
#     look for the agent's seed only); an initramfs with only what the root on a virtio disk
#     needs (MODULES=list: virtio_pci, virtio_blk, ext4); `quiet` on the kernel command line (the
#     consoles stay: cloud-init's own lines and errors still reach the serial log); e2scrub and
#     apt's timers masked (no LVM snapshots to reap, no mirror to reach).
#
# No loop devices, no mounts, no privileges beyond root (CI runs as root in a container):
# mmdebstrap builds the tree (its chroot mounts stay in a private mount namespace, or are
# skipped where none can be made), mkfs.ext4 -d and mtools fill the partitions' images, sfdisk writes
# the partition table, dd places the partitions, qemu-img converts.
#
# Usage: scripts/test-image/build.sh [OUT_DIR]        (default <repo>/.cache/test-image, not in git)
# Output: OUT_DIR/debian-12-rentgpu.qcow2         the image (virtual size 2.2 GB, compressed)
#         OUT_DIR/debian-12-rentgpu.qcow2.sha256  `sha256sum` format, as a mirror's SHA256SUMS
#         OUT_DIR/image-info.txt                  sha256, bytes, versions, build seconds, builder hash
# Idempotent: exits at once when OUT_DIR holds an image built by this same script (its hash).
# Installs the Debian packages it needs when missing (root, or sudo without a password).
# MIRROR=http://... overrides the Debian mirror (default: the one in apt's own sources).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT_DIR="${1:-${TEST_IMAGE_DIR:-$REPO_DIR/.cache/test-image}}"
NAME=debian-12-rentgpu.qcow2
SUITE=bookworm
BUILDER_HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
t0=$(date +%s%N)
log() { local ms=$(( ($(date +%s%N) - t0) / 1000000 )); printf '[test-image %4d.%01ds] %s\n' $((ms/1000)) $((ms%1000/100)) "$*"; }

if [ -s "$OUT_DIR/$NAME" ] && [ -s "$OUT_DIR/$NAME.sha256" ] \
  && grep -qx "builder_hash=$BUILDER_HASH" "$OUT_DIR/image-info.txt" 2>/dev/null; then
  log "already built in $OUT_DIR (skipping)"
  exit 0
fi

# ---------------------------------------------------------------- 1. host packages
SUDO=()
[ "$(id -u)" = 0 ] || SUDO=(sudo -n)
PKGS=(mmdebstrap qemu-utils e2fsprogs dosfstools mtools fdisk systemd-boot-efi ovmf genisoimage)
missing=()
for p in "${PKGS[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if ((${#missing[@]})); then
  log "installing: ${missing[*]}"
  # Another apt may be running (CI images, other builders): wait for its lock, do not fight it.
  APT=("${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900)
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ] || "${APT[@]}" update -qq
  "${APT[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
log "host packages ready"

# ---------------------------------------------------------------- 2. mirror (apt's own)
# "URI suite" for every bookworm, bookworm-updates and bookworm-security source apt uses
# (deb822 *.sources and one-line *.list), so the guest comes from the same mirror as the host.
apt_sources() {
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'function emit() { if (types ~ /(^| )deb( |$)/) for (i = 1; i <= nu; i++) for (j = 1; j <= ns; j++) print u[i], s[j]; nu = ns = 0; types = "" }
      /^[ \t]*$/ { emit(); next }
      /^Types:/ { types = $0; sub(/^Types:[ \t]*/, "", types) }
      /^URIs:/ { nu = split(substr($0, 6), u, " ") }
      /^Suites:/ { ns = split(substr($0, 8), s, " ") }
      END { emit() }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" { print $2, $3 }'
  done
}
MIRRORS=()
if [ -n "${MIRROR:-}" ]; then
  MIRRORS=("deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main")
else
  while read -r uri suite; do
    case "$suite" in "$SUITE" | "$SUITE-updates" | "$SUITE-security") MIRRORS+=("deb $uri $suite main") ;; esac
  done < <(apt_sources | awk '!seen[$0]++')
fi
printf '%s\n' "${MIRRORS[@]}" | grep -q " $SUITE main$" \
  || MIRRORS=("deb http://deb.debian.org/debian $SUITE main" "${MIRRORS[@]}")
log "mirrors: $(printf '%s; ' "${MIRRORS[@]}")"

# ---------------------------------------------------------------- 3. root file system tree
W=$(mktemp -d -t rentgpu-image.XXXXXX)
trap 'rm -rf "$W"' EXIT
R="$W/rootfs"
INCLUDE=systemd-sysv,dbus,libpam-systemd,linux-image-cloud-amd64,cloud-init,openssh-server,sudo,cloud-guest-utils,ifupdown,isc-dhcp-client,netbase,iproute2,python3,ca-certificates,e2fsprogs,fdisk
# mmdebstrap's root mode mounts /proc, /sys and /dev in the chroot while packages install: in a
# mount namespace of its own when the build may make one (nothing leaks into the host's mounts),
# or not at all when it may not (a container without CAP_SYS_ADMIN; TEST_IMAGE_NO_MOUNTS=1).
NS=(unshare --mount --propagation private)
SKIP=()
if [ -n "${TEST_IMAGE_NO_MOUNTS:-}" ] || ! "${NS[@]}" true 2>/dev/null; then
  NS=(); SKIP=(--skip=chroot/mount); log "no mount namespace: installing packages without /proc, /sys, /dev mounts"
fi
t_tree=$(date +%s)
"${NS[@]}" mmdebstrap --variant=minbase --mode=root --format=directory --quiet "${SKIP[@]}" \
  --aptopt='Acquire::Languages "none"' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --include="$INCLUDE" \
  --customize-hook='echo "LABEL=cloudimg-rootfs / ext4 defaults,discard,errors=remount-ro 0 1" > "$1/etc/fstab"' \
  --customize-hook='rm -f "$1"/etc/ssh/ssh_host_*' \
  --customize-hook='echo debian > "$1/etc/hostname"; printf "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n" > "$1/etc/hosts"' \
  --customize-hook=': > "$1/etc/machine-id"; rm -f "$1/var/lib/dbus/machine-id"' \
  --customize-hook='printf "%s\n" "locale: C.UTF-8" "ssh_genkeytypes: [ed25519, ecdsa]" "grub_dpkg:" "  enabled: false" > "$1/etc/cloud/cloud.cfg.d/90-rentgpu-image.cfg"' \
  --customize-hook='printf "%s\n" "datasource_list: [NoCloud, None]" > "$1/etc/cloud/cloud.cfg.d/99_rentgpu-datasource.cfg"' \
  --customize-hook='for u in e2scrub_reap.service e2scrub_all.timer apt-daily.timer apt-daily-upgrade.timer; do ln -sf /dev/null "$1/etc/systemd/system/$u"; done' \
  --customize-hook='echo MODULES=list > "$1/etc/initramfs-tools/conf.d/rentgpu-modules"; printf "%s\n" virtio_pci virtio_blk ext4 >> "$1/etc/initramfs-tools/modules"; chroot "$1" update-initramfs -u -k all' \
  --customize-hook='rm -rf "$1"/var/cache/apt/*.bin "$1"/var/log/*.log "$1"/var/log/apt/*' \
  "$SUITE" "$R" "${MIRRORS[@]}"
log "root tree: $(du -sh "$R" | cut -f1) in $(( $(date +%s) - t_tree )) s"
KVER=$(basename "$(find "$R/lib/modules" -mindepth 1 -maxdepth 1 -type d | sort | tail -1)")
CLOUD_INIT_VERSION=$(dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Version}' cloud-init)
[ -s "$R/boot/vmlinuz-$KVER" ] && [ -s "$R/boot/initrd.img-$KVER" ] || { echo "no kernel/initrd for $KVER in the tree" >&2; exit 1; }

# ---------------------------------------------------------------- 4. partitions' images
# Layout (512-byte sectors): ESP 1 MiB .. 129 MiB, root 129 MiB .. 2177 MiB, 1 MiB spare (GPT backup).
ESP_MIB=128
ROOT_MIB=2048
truncate -s "${ROOT_MIB}M" "$W/root.img"
mkfs.ext4 -q -d "$R" -L cloudimg-rootfs -E root_owner=0:0 "$W/root.img"
truncate -s "${ESP_MIB}M" "$W/esp.img"
mkfs.vfat -F 32 -n ESP "$W/esp.img" >/dev/null
mmd -i "$W/esp.img" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries
mcopy -i "$W/esp.img" /usr/lib/systemd/boot/efi/systemd-bootx64.efi ::/EFI/BOOT/BOOTX64.EFI
mcopy -i "$W/esp.img" "$R/boot/vmlinuz-$KVER" ::/vmlinuz
mcopy -i "$W/esp.img" "$R/boot/initrd.img-$KVER" ::/initrd.img
printf 'default debian.conf\ntimeout 0\n' > "$W/loader.conf"
printf 'title Debian 12 (RentGPU test image)\nlinux /vmlinuz\ninitrd /initrd.img\noptions root=LABEL=cloudimg-rootfs ro console=tty0 console=ttyS0,115200n8 quiet\n' > "$W/debian.conf"
mcopy -i "$W/esp.img" "$W/loader.conf" ::/loader/loader.conf
mcopy -i "$W/esp.img" "$W/debian.conf" ::/loader/entries/debian.conf

# ---------------------------------------------------------------- 5. disk, qcow2
truncate -s "$((1 + ESP_MIB + ROOT_MIB + 1))M" "$W/disk.raw"
sfdisk -q "$W/disk.raw" <<EOF
label: gpt
start=$((1 * 2048)), size=$((ESP_MIB * 2048)), type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="ESP"
start=$(((1 + ESP_MIB) * 2048)), size=$((ROOT_MIB * 2048)), type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name="cloudimg-rootfs"
EOF
dd if="$W/esp.img" of="$W/disk.raw" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$W/root.img" of="$W/disk.raw" bs=1M seek=$((1 + ESP_MIB)) conv=notrunc,sparse status=none
mkdir -p "$OUT_DIR"
qemu-img convert -c -O qcow2 "$W/disk.raw" "$OUT_DIR/$NAME.tmp"
mv "$OUT_DIR/$NAME.tmp" "$OUT_DIR/$NAME"
(cd "$OUT_DIR" && sha256sum "$NAME" > "$NAME.sha256")
{
  echo "image=$NAME"
  echo "sha256=$(cut -d' ' -f1 "$OUT_DIR/$NAME.sha256")"
  echo "bytes=$(stat -c %s "$OUT_DIR/$NAME")"
  echo "virtual_bytes=$(stat -c %s "$W/disk.raw")"
  echo "suite=$SUITE"
  echo "kernel_version=$KVER"
  echo "cloud_init_version=$CLOUD_INIT_VERSION"
  echo "default_login=none (cloud-init creates the user from the seed)"
  echo "firmware=uefi (systemd-boot on the ESP, EFI/BOOT/BOOTX64.EFI)"
  echo "rootfs_kib=$(du -sk "$R" | cut -f1)"
  echo "build_seconds=$(( ($(date +%s%N) - t0) / 1000000000 ))"
  echo "built=$(date -u +%FT%TZ)"
  echo "builder_hash=$BUILDER_HASH"
} > "$OUT_DIR/image-info.txt"
log "done: $OUT_DIR/$NAME ($(du -h "$OUT_DIR/$NAME" | cut -f1))"
cat "$OUT_DIR/image-info.txt"

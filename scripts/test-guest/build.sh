#!/usr/bin/env bash
# scripts/test-guest/build.sh - build the small bootable guest the agent's end-to-end tests boot.
#
# Everything comes from Debian packages on the CI machine (no cloud image download):
#   * kernel   : linux-image-<ver>-amd64, fetched with `apt-get download` and unpacked with
#                dpkg-deb -x (the host's /boot and initramfs-tools are NOT touched)
#   * userland : busybox-static (init, shell, udhcpc, acpid, mke2fs, ...) + dropbear (SSH server)
#   * modules  : virtio-pci/net/blk/rng, isofs, ext4, fw_cfg, ACPI button + evdev
# The whole root filesystem lives in the initramfs. The instance disk (a qcow2 overlay the agent
# creates over base.qcow2, the stand-in for a provider's base image) is formatted on first boot
# and mounted on /data (+ /home bind), so data and the SSH host key survive stop/start. The
# renter's user name and SSH keys come from a cloud-init NoCloud seed (ISO9660 volume "cidata"),
# as on real clouds: `users: [{name, ssh_authorized_keys}]` or `user:` + `ssh_authorized_keys:`.
# ACPI power button (QMP system_powerdown) powers the guest off cleanly.
#
# Usage: scripts/test-guest/build.sh [OUT_DIR]        (default <repo>/.cache/test-guest, not in git)
# Output: OUT_DIR/vmlinuz  OUT_DIR/initrd.img  OUT_DIR/base.qcow2  OUT_DIR/guest-info.txt
# Idempotent: exits at once when OUT_DIR holds a guest built by this same script.
# Installs the Debian packages it needs when missing (root, or sudo without a password).
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT_DIR="${1:-${TEST_GUEST_DIR:-$REPO_DIR/.cache/test-guest}}"
CACHE_DIR="$OUT_DIR/.cache"
GUEST_USER="${GUEST_USER:-renter}"
BUILDER_HASH="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s%N)
log() { local ms=$(( ($(date +%s%N) - t0) / 1000000 )); printf '[test-guest %4d.%01ds] %s\n' $((ms/1000)) $((ms%1000/100)) "$*"; }

if [ -s "$OUT_DIR/vmlinuz" ] && [ -s "$OUT_DIR/initrd.img" ] && [ -s "$OUT_DIR/base.qcow2" ] \
  && grep -qx "builder_hash=$BUILDER_HASH" "$OUT_DIR/guest-info.txt" 2>/dev/null; then
  log "already built in $OUT_DIR (skipping)"
  exit 0
fi

# ---------------------------------------------------------------- 1. host packages
SUDO=()
[ "$(id -u)" = 0 ] || SUDO=(sudo -n)
PKGS=(qemu-system-x86 qemu-utils busybox-static dropbear-bin genisoimage kmod cpio openssh-client)
missing=()
for p in "${PKGS[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p"); done
if ((${#missing[@]})); then
  log "installing: ${missing[*]}"
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ] || "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
log "host packages ready"

# ---------------------------------------------------------------- 2. kernel (not installed on host)
mkdir -p "$CACHE_DIR" "$OUT_DIR"
KPKG="${KERNEL_PKG:-$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')}"
[ -n "$KPKG" ] || { [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' | head -1)" ] || "${SUDO[@]}" apt-get update -qq;
  KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}'); }
KROOT="$CACHE_DIR/kroot-$KPKG"
if [ ! -d "$KROOT/boot" ]; then
  log "downloading $KPKG"
  (cd "$CACHE_DIR" && rm -f ./"$KPKG"_*.deb && apt-get download -qq "$KPKG" 2>/dev/null)
  rm -rf "$KROOT.tmp" && dpkg-deb -x "$CACHE_DIR/$KPKG"_*.deb "$KROOT.tmp" && mv "$KROOT.tmp" "$KROOT"
fi
KVER=$(basename "$(find "$KROOT/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -1)")
[ -f "$KROOT/lib/modules/$KVER/modules.dep" ] || depmod -b "$KROOT" "$KVER"
log "kernel $KVER"

# ---------------------------------------------------------------- 3. root filesystem (initramfs)
R=$(mktemp -d -t rentgpu-guest-root.XXXXXX)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,etc/init.d,etc/acpi/PWRF,proc,sys,dev,run,tmp,root,home,data,mnt,var/log,lib/modules,lib64,lib/x86_64-linux-gnu}
chmod 755 "$R"; chmod 1777 "$R/tmp"; chmod 700 "$R/root"
cp /bin/busybox "$R/bin/busybox"
for a in $(/bin/busybox --list-full); do [ -e "$R/$a" ] || ln -s /bin/busybox "$R/$a"; done
ln -s /bin/busybox "$R/init"
# dropbear + its shared libraries
cp /usr/sbin/dropbear "$R/usr/sbin/"; cp /usr/bin/dropbearkey "$R/usr/bin/"
for lib in $(ldd /usr/sbin/dropbear /usr/bin/dropbearkey | awk '/=> \//{print $3} /^\t\/lib64/{print $1}' | sort -u); do
  mkdir -p "$R$(dirname "$lib")"; cp -L "$lib" "$R$lib"
done
# kernel modules, in dependency order
MODS="virtio_pci virtio_net virtio_blk virtio_rng isofs crc32c_generic ext4 qemu_fw_cfg button evdev"
: > "$R/etc/modules.list"
for m in $MODS; do
  modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1=="insmod"{print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
  rel=${ko#"$KROOT"}; mkdir -p "$R$(dirname "$rel")"; cp "$ko" "$R$rel"; echo "$rel" >> "$R/etc/modules.list"
done

cat > "$R/etc/passwd" <<EOF
root:*:0:0:root:/root:/bin/sh
$GUEST_USER:*:1000:1000:RentGPU renter:/home/$GUEST_USER:/bin/sh
EOF
printf 'root:x:0:\n%s:x:1000:\n' "$GUEST_USER" > "$R/etc/group"
printf '/bin/sh\n/bin/ash\n' > "$R/etc/shells"
echo "$GUEST_USER" > "$R/etc/default-user"
echo rentgpu-guest > "$R/etc/hostname"
echo "RentGPU test guest (busybox + dropbear, $KVER)" > "$R/etc/issue"

cat > "$R/etc/inittab" <<'EOF'
::sysinit:/etc/init.d/rcS
::respawn:/usr/sbin/dropbear -F -E -s -p 22 -r /data/etc/dropbear/dropbear_ed25519_host_key
::respawn:/sbin/acpid -f -c /etc/acpi
tty1::respawn:/sbin/getty 38400 tty1
::ctrlaltdel:/sbin/poweroff
::shutdown:/etc/init.d/rcK
EOF

# ACPI power button (QMP system_powerdown) -> clean poweroff
printf '#!/bin/sh\necho "rentgpu-guest: ACPI power button, powering off" > /dev/console\npoweroff\n' > "$R/etc/acpi/PWRF/00000080"
chmod +x "$R/etc/acpi/PWRF/00000080"

cat > "$R/etc/udhcpc.sh" <<'EOF'
#!/bin/sh
case "$1" in
  deconfig) ip addr flush dev "$interface"; ip link set "$interface" up ;;
  bound|renew)
    ip addr flush dev "$interface"
    ip addr add "$ip/${mask:-24}" dev "$interface"
    [ -n "$router" ] && ip route replace default via "${router%% *}" dev "$interface"
    : > /etc/resolv.conf; for d in $dns; do echo "nameserver $d" >> /etc/resolv.conf; done ;;
esac
exit 0
EOF
chmod +x "$R/etc/udhcpc.sh"

cat > "$R/etc/init.d/rcS" <<'EOF'
#!/bin/sh
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm; mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=755 tmpfs /run; mount -t tmpfs -o mode=1777 tmpfs /tmp
say() { echo "rentgpu-guest: $*" > /dev/console; }
say "rcS start at uptime $(cut -d' ' -f1 /proc/uptime)s"
while read -r ko; do insmod "$ko" 2>/dev/null; done < /etc/modules.list
hostname -F /etc/hostname
ip link set lo up
ip link set eth0 up 2>/dev/null
udhcpc -i eth0 -s /etc/udhcpc.sh -q -n -t 4 -T 1 >/dev/null 2>&1 || {
  say "DHCP failed, using slirp defaults"; ip addr add 10.0.2.15/24 dev eth0; ip route add default via 10.0.2.2; echo "nameserver 10.0.2.3" > /etc/resolv.conf; }

# --- seed: cloud-init NoCloud ("cidata" ISO9660) -------------------------------------------
USER_NAME=$(cat /etc/default-user); KEYS=/run/authorized_keys; : > $KEYS; SEED=""
mkdir -p /run/seed
for d in /dev/vd? /dev/sr?; do
  [ -b "$d" ] || continue
  if mount -t iso9660 -o ro "$d" /run/seed 2>/dev/null; then
    if [ -f /run/seed/user-data ] || [ -f /run/seed/meta-data ]; then SEED=$d; break; fi
    umount /run/seed
  fi
done
if [ -n "$SEED" ]; then
  say "NoCloud seed found on $SEED"
  h=$(awk -F': *' '$1=="local-hostname"{print $2}' /run/seed/meta-data 2>/dev/null | tr -d "\"'")
  [ -n "$h" ] && hostname "$h" && echo "$h" > /etc/hostname
  u=$(awk -F': *' '/^user:/{print $2}' /run/seed/user-data 2>/dev/null | head -1 | tr -d "\"'")
  [ -n "$u" ] || u=$(sed -n 's/^[[:space:]]*-[[:space:]]*name:[[:space:]]*//p' /run/seed/user-data 2>/dev/null | head -1 | tr -d "\"' ")
  [ -n "$u" ] && USER_NAME=$u
  # every "- ssh-..." / "- ecdsa-..." / "- sk-..." list item (top-level ssh_authorized_keys or users[].ssh_authorized_keys)
  sed -n 's/^[[:space:]]*-[[:space:]]*["'"'"']\{0,1\}\(\(ssh-\|ecdsa-\|sk-\)[^"'"'"']*\)["'"'"']\{0,1\}[[:space:]]*$/\1/p' /run/seed/user-data >> $KEYS 2>/dev/null
fi
# --- seed: fw_cfg ---------------------------------------------------------------------------
F=/sys/firmware/qemu_fw_cfg/by_name/opt/rentgpu/ssh_authorized_keys/raw
[ -r "$F" ] && { say "ssh keys from fw_cfg"; cat "$F" >> $KEYS; echo >> $KEYS; }
# --- seed: kernel command line ----------------------------------------------------------------
for w in $(cat /proc/cmdline); do case "$w" in
  rentgpu.ssh_key_b64=*) say "ssh keys from kernel cmdline"; echo "${w#*=}" | base64 -d >> $KEYS; echo >> $KEYS ;;
  rentgpu.user=*) USER_NAME=${w#*=} ;;
esac; done

# --- persistent data disk (first non-seed virtio disk) -----------------------------------------
for d in /dev/vd?; do
  [ -b "$d" ] && [ "$d" != "$SEED" ] || continue
  magic=$(dd if="$d" bs=1 skip=1080 count=2 2>/dev/null | hexdump -v -e '2/1 "%02x"')
  if [ "$magic" != "53ef" ]; then say "formatting $d (first boot)"; mke2fs -q -i 4194304 -L rgdata "$d" >/dev/null 2>&1; fi
  mount -t ext4 "$d" /data && say "mounted $d on /data" && break
done
mkdir -p /data/home /data/etc/dropbear; mount --bind /data/home /home
echo "$(date -u +%FT%TZ) boot uptime=$(cut -d' ' -f1 /proc/uptime)" >> /data/boot-history

# --- users & keys ---------------------------------------------------------------------------------
if [ "$USER_NAME" != "$(cat /etc/default-user)" ] && ! grep -q "^$USER_NAME:" /etc/passwd; then
  echo "$USER_NAME:*:1000:1000:RentGPU renter:/home/$USER_NAME:/bin/sh" >> /etc/passwd
  sed -i "/^$(cat /etc/default-user):/d" /etc/passwd; echo "$USER_NAME:x:1000:" >> /etc/group
fi
grep -v '^[[:space:]]*$' $KEYS | awk '!s[$0]++' > $KEYS.u; mv $KEYS.u $KEYS
for hd in /root:0 /home/$USER_NAME:1000; do
  dir=${hd%:*}; id=${hd#*:}; mkdir -p "$dir/.ssh"; cp $KEYS "$dir/.ssh/authorized_keys"
  chmod 700 "$dir" "$dir/.ssh"; chmod 600 "$dir/.ssh/authorized_keys"; chown -R "$id:$id" "$dir"
done
say "$(wc -l < $KEYS) authorized key(s) installed for root and $USER_NAME"

# --- SSH host key (persisted on /data so known_hosts stays valid across stop/start) ---------------
HK=/data/etc/dropbear/dropbear_ed25519_host_key
[ -s $HK ] || dropbearkey -t ed25519 -f $HK >/dev/null 2>&1
fp=$(dropbearkey -y -f $HK | sed -n 's/^Fingerprint: //p')
say "-----BEGIN SSH HOST KEY FINGERPRINTS----- ed25519 $fp -----END SSH HOST KEY FINGERPRINTS-----"
say "RENTGPU_GUEST_READY uptime=$(cut -d' ' -f1 /proc/uptime)s ip=$(ip -4 -o addr show eth0 | awk '{print $4}')"
EOF
chmod +x "$R/etc/init.d/rcS"

cat > "$R/etc/init.d/rcK" <<'EOF'
#!/bin/sh
echo "rentgpu-guest: shutting down" > /dev/console
echo "$(date -u +%FT%TZ) shutdown" >> /data/boot-history 2>/dev/null
sync; umount /home 2>/dev/null; umount /data 2>/dev/null || mount -o remount,ro /data 2>/dev/null; sync
EOF
chmod +x "$R/etc/init.d/rcK"

# ---------------------------------------------------------------- 4. pack
cp "$KROOT/boot/vmlinuz-$KVER" "$OUT_DIR/vmlinuz"
(cd "$R" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet | gzip -6) > "$OUT_DIR/initrd.img.tmp"
mv "$OUT_DIR/initrd.img.tmp" "$OUT_DIR/initrd.img"
# The provider's base image: blank here (the guest formats the instance disk on first boot);
# an Ubuntu cloud image on real hosts. Instance disks are qcow2 overlays backed by it.
rm -f "$OUT_DIR/base.qcow2" && qemu-img create -q -f qcow2 "$OUT_DIR/base.qcow2" 1G
{
  echo "kernel_package=$KPKG"; echo "kernel_version=$KVER"; echo "default_user=$GUEST_USER"
  echo "vmlinuz_bytes=$(stat -c %s "$OUT_DIR/vmlinuz")"; echo "initrd_bytes=$(stat -c %s "$OUT_DIR/initrd.img")"
  echo "rootfs_unpacked_kib=$(du -sk "$R" | cut -f1)"; echo "built=$(date -u +%FT%TZ)"
  echo "builder_hash=$BUILDER_HASH"
} > "$OUT_DIR/guest-info.txt"
log "done: $OUT_DIR/vmlinuz ($(du -h "$OUT_DIR/vmlinuz" | cut -f1)) $OUT_DIR/initrd.img ($(du -h "$OUT_DIR/initrd.img" | cut -f1))"
cat "$OUT_DIR/guest-info.txt"

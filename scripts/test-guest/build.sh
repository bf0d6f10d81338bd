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
# User-data is acted on with a small, honest subset of cloud-init (/etc/init.d/cloud-final, run
# in the background once dropbear is up, as cloud-init's final stage runs after sshd):
#   * a MIME multipart user-data is split into its parts; a plain one is one part;
#   * a part starting "#cloud-config": `write_files` (path, permissions, owner, content as a
#     literal block `|` or a one-line scalar) then `runcmd` (a list item that is a flow sequence
#     ["cmd", "arg", ...] of quoted or plain words is quoted word by word; a string item is run
#     by sh), written to /var/lib/cloud/instance/scripts/runcmd and run as root, as cloud-init
#     does; other keys (packages, package_update, users, power_state, ...) are logged as skipped;
#   * a part starting "#!" is saved to /var/lib/cloud/instance/scripts/part-NNN and executed;
#   * once per instance: the state lives on the instance disk under /data/var/lib/cloud, keyed
#     by meta-data's instance-id, so stop/start does not run it again (files written outside
#     /data and /home live in the initramfs and are gone after a restart);
#   * output goes to /var/log/cloud-init-output.log; the runcmd script also appends
#     "<index> <exit status>" per entry to /var/lib/cloud/instance/runcmd-status (a test-guest
#     addition that tests read), and /var/lib/cloud/instance/boot-finished is written at the end.
#   /bin/bash runs busybox's ash (the templates' scripts use POSIX sh only). There is no package
#   manager, python or network beyond slirp: installing software cannot work here.
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
printf '#!/bin/sh\nexec /bin/busybox sh "$@"\n' > "$R/bin/bash"; chmod 755 "$R/bin/bash"
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
# --- user-data: cloud-init's final stage, once dropbear is up (see the header) --------------------
[ -n "$SEED" ] && [ -f /run/seed/user-data ] && { sleep 1; /etc/init.d/cloud-final; } </dev/null >/dev/null 2>&1 &
EOF
chmod +x "$R/etc/init.d/rcS"

cat > "$R/etc/init.d/cloud-final" <<'EOF'
#!/bin/sh
# The test guest's subset of cloud-init (scripts/test-guest/build.sh, header).
export PATH=/sbin:/bin:/usr/sbin:/usr/bin HOME=/root
say() { echo "rentgpu-guest: cloud-final: $*" > /dev/console; echo "cloud-final: $*" >> /var/log/cloud-init-output.log; }
id=$(awk -F': *' '$1=="instance-id"{print $2}' /run/seed/meta-data 2>/dev/null | tr -d "\"'")
[ -n "$id" ] || id=nocloud
mkdir -p /data/var/lib/cloud/instances/"$id" /var/lib /var/log
[ -e /var/lib/cloud ] || ln -s /data/var/lib/cloud /var/lib/cloud
ln -sfn /var/lib/cloud/instances/"$id" /var/lib/cloud/instance
I=/var/lib/cloud/instance
if [ -e $I/sem/user-data ]; then say "user-data of instance $id already ran"; exit 0; fi
mkdir -p $I/sem $I/scripts $I/parts; chmod 755 /data/var /data/var/lib /data/var/lib/cloud
# 1. the parts: headers dropped, bodies in $I/parts/NNN
rm -f $I/parts/*
awk -v dir="$I/parts" '
  NR==1 && !/^Content-Type: multipart\// { single=1 }
  single { print > (dir "/001"); next }
  NR<=3 && match($0, /boundary="[^"]+"/) { b=substr($0, RSTART+10, RLENGTH-11); next }
  b=="" { next }
  $0=="--" b || $0=="--" b "--" { n++; inhead=1; out=sprintf("%s/%03d", dir, n); next }
  inhead { if ($0=="") inhead=0; next }
  n { print > out }
' /run/seed/user-data
# 2. each part by its first line
cloud_config() {
  for k in $(awk '/^[A-Za-z_][A-Za-z0-9_]*:/{sub(/:.*/, ""); print}' "$1"); do case $k in
    write_files|runcmd) ;;
    hostname|users|user|ssh_authorized_keys) say "$k: applied at boot (rcS)" ;;
    *) say "$k: skipped (not in the test guest's cloud-init subset)" ;;
  esac; done
  W=$I/files/$(basename "$1"); rm -rf "$W"; mkdir -p "$W"
  awk -v dir="$W" -f /etc/cloud/write-files.awk "$1" | while IFS='	' read -r f p m o; do
    mkdir -p "$(dirname "$p")" && cp "$f" "$p" && chmod "$m" "$p" && chown "$o" "$p" \
      && say "wrote $p ($m $o)" || say "could not write $p"
  done
  if grep -q '^runcmd:' "$1"; then
    awk -v status="$I/runcmd-status" -f /etc/cloud/runcmd.awk "$1" > $I/scripts/runcmd
    chmod 700 $I/scripts/runcmd; : > $I/runcmd-status; chmod 644 $I/runcmd-status
    say "running runcmd ($(( ($(wc -l < $I/scripts/runcmd) - 1) / 2 )) entries)"
    $I/scripts/runcmd >> /var/log/cloud-init-output.log 2>&1
    say "runcmd done, entry exit statuses: $(cut -d' ' -f2 $I/runcmd-status | tr '\n' ' ')"
  fi
}
for part in $I/parts/*; do
  [ -s "$part" ] || continue
  first=$(head -n1 "$part")
  case "$first" in
    '#cloud-config'*) cloud_config "$part" ;;
    '#!'*) s=$I/scripts/part-$(basename "$part"); cp "$part" "$s"; chmod 700 "$s"
      say "running script part $(basename "$part")"; "$s" >> /var/log/cloud-init-output.log 2>&1
      say "script part $(basename "$part") exit $?" ;;
    *) say "part $(basename "$part") skipped (neither #cloud-config nor #!)" ;;
  esac
done 2>>/var/log/cloud-init-output.log
touch $I/sem/user-data
echo "$(cut -d' ' -f1 /proc/uptime)" > $I/boot-finished
sync
say "finished at uptime $(cut -d' ' -f1 /proc/uptime)s"
EOF
chmod +x "$R/etc/init.d/cloud-final"
mkdir -p "$R/etc/cloud"
# write_files: each item's content into dir/N; prints "file<TAB>path<TAB>permissions<TAB>owner".
cat > "$R/etc/cloud/write-files.awk" <<'EOF'
function unq(v) {
  sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v)
  if (v ~ /^'.*'$/ || v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
  return v
}
function endblock() { if (inblock && started && !strip) printf "\n" > out; inblock = 0 }
function flush() {
  endblock()
  if (n && path != "") { close(out); printf "%s\t%s\t%s\t%s\n", out, path, perm, owner }
}
/^[A-Za-z_]/ { flush(); n = 0; inwf = ($0 ~ /^write_files:/); next }
!inwf { next }
inblock {
  if ($0 ~ /^[ \t]*$/) { if (started) blanks++; next }
  match($0, /^ */)
  if (RLENGTH > kind) {
    if (!bi) bi = RLENGTH
    if (started) { printf "\n" > out; for (; blanks > 0; blanks--) printf "\n" > out }
    printf "%s", substr($0, bi + 1) > out; started = 1; next
  }
  endblock()
}
{
  line = $0
  if (match(line, /^ *- /)) {
    flush(); n++; out = dir "/" n; path = ""; perm = "0644"; owner = "root:root"
    printf "" > out
    line = sprintf("%" RLENGTH "s", "") substr(line, RLENGTH + 1)
  }
  if (match(line, /^ *[a-z_]+:/)) {
    match(line, /^ */); kind = RLENGTH
    k = substr(line, kind + 1); v = k; sub(/:.*/, "", k); sub(/^[a-z_]+:/, "", v); v = unq(v)
    if (k == "content") {
      if (v ~ /^\|/) { inblock = 1; bi = 0; blanks = 0; started = 0; strip = (v ~ /^\|-/) }
      else printf "%s", v > out
    } else if (k == "path") path = v
    else if (k == "permissions") perm = v
    else if (k == "owner") owner = v
  }
}
END { flush() }
EOF
# runcmd: a /bin/sh script, one line per entry, each followed by its exit status line.
cat > "$R/etc/cloud/runcmd.awk" <<'EOF'
function shq(w,   parts, c, j, r) {
  c = split(w, parts, "'"); r = parts[1]
  for (j = 2; j <= c; j++) r = r "'\"'\"'" parts[j]
  return "'" r "'"
}
function flow(s,   i, c, w, out, q, n) {
  out = ""; i = 1; n = length(s)
  while (i <= n) {
    c = substr(s, i, 1)
    if (c == " " || c == "," || c == "\t") { i++; continue }
    if (c == "]") break
    w = ""
    if (c == "\"") {
      for (i++; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "\\") { i++; c = substr(s, i, 1); if (c == "n") c = "\n"; else if (c == "t") c = "\t" }
        else if (c == "\"") { i++; break }
        w = w c
      }
    } else if (c == "'") {
      for (i++; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "'") { if (substr(s, i + 1, 1) == "'") { i++ } else { i++; break } }
        w = w c
      }
    } else {
      for (; i <= n; i++) { c = substr(s, i, 1); if (c == "," || c == "]") break; w = w c }
      sub(/[ \t]+$/, "", w)
    }
    out = out (out == "" ? "" : " ") shq(w)
  }
  return out
}
BEGIN { print "#!/bin/sh" }
/^[A-Za-z_]/ { inrc = ($0 ~ /^runcmd:/); next }
inrc && match($0, /^ *- /) {
  v = substr($0, RLENGTH + 1); sub(/[ \t]+$/, "", v)
  if (v ~ /^\[/) cmd = flow(substr(v, 2))
  else if (v ~ /^'.*'$/ || v ~ /^".*"$/) cmd = substr(v, 2, length(v) - 2)
  else cmd = v
  print cmd
  printf "echo \"%d $?\" >> %s\n", i++, status
}
EOF

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

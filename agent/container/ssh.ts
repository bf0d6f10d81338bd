import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { DriverError } from '../driver';
import { fileExists } from '../files';

const run = promisify(execFile);

/**
 * SSH into any image that has /bin/sh (docs/decisions/025): the agent supplies the server.
 * The host's dropbear, its shared libraries and its dynamic loader are copied once into
 * `<stateDir>/container-ssh/` and bind-mounted read-only at `/.rentgpu`; dropbear runs as
 * `/.rentgpu/lib/ld.so --library-path /.rentgpu/lib /.rentgpu/bin/dropbear`, so it needs
 * nothing from the image's libc (Alpine, distroless-with-busybox, CUDA images alike). Each
 * instance's own files (host key, login user, authorized keys) are mounted at
 * `/.rentgpu/instance`. The host key is made by the agent, so it knows the key it pins and
 * reports before the first login.
 */
export const MOUNT = '/.rentgpu';
/** Marks the authorized_keys lines the entrypoint manages (replaced at every start). */
export const MANAGED = 'rentgpu-managed';

/**
 * The container's entrypoint: makes the login user when the image has none, writes its keys,
 * starts the image's own command (what follows `--`) in the background, and runs dropbear in
 * the foreground (the container stops when it does). POSIX sh and its builtins only, apart
 * from cp, mkdir, chmod and chown, which any image with /bin/sh has (chown is optional).
 */
export const ENTRYPOINT = `#!/bin/sh
# rentgpu: the agent's SSH entrypoint (agent/container/ssh.ts)
set -e
R=${MOUNT}
I=$R/instance
umask 022
U=$(cat "$I/user")
mkdir -p /run/rentgpu
cp "$I/host_key" /run/rentgpu/host_key
chmod 600 /run/rentgpu/host_key
uid=; gid=; home=
while IFS=: read -r n _ u g _ h _; do
  if [ "$n" = "$U" ]; then uid=$u; gid=$g; home=$h; fi
done < /etc/passwd
if [ -z "$uid" ]; then
  uid=1000
  while :; do
    used=
    while IFS=: read -r _ _ u _; do if [ "$u" = "$uid" ]; then used=1; fi; done < /etc/passwd
    if [ -z "$used" ]; then break; fi
    uid=$((uid + 1))
  done
  gid=$uid; home=/home/$U
  echo "$U:x:$uid:$gid::$home:/bin/sh" >> /etc/passwd
  echo "$U:x:$gid:" >> /etc/group
  if [ -f /etc/shadow ]; then echo "$U:*:19000:0:99999:7:::" >> /etc/shadow; fi
fi
# dropbear refuses a locked account ('!' in shadow): key logins only, so unlock it with '*'.
if [ -f /etc/shadow ]; then
  locked=
  while IFS=: read -r n p _; do
    if [ "$n" = "$U" ]; then case "$p" in '!'*) locked=1 ;; esac; fi
  done < /etc/shadow
  if [ -n "$locked" ]; then
    : > /etc/shadow.rentgpu
    while IFS= read -r line; do
      case "$line" in "$U:!"*) line="$U:*:\${line#"$U":*:}" ;; esac
      printf '%s\\n' "$line" >> /etc/shadow.rentgpu
    done < /etc/shadow
    chmod 600 /etc/shadow.rentgpu 2>/dev/null || true
    cat /etc/shadow.rentgpu > /etc/shadow
    rm -f /etc/shadow.rentgpu 2>/dev/null || :
  fi
fi
mkdir -p "$home/.ssh"
keys="$home/.ssh/authorized_keys"
: > "$keys.rentgpu"
if [ -f "$keys" ]; then
  while IFS= read -r line; do
    case "$line" in *" ${MANAGED}") ;; *) printf '%s\\n' "$line" >> "$keys.rentgpu" ;; esac
  done < "$keys"
fi
cat "$I/authorized_keys" >> "$keys.rentgpu"
cat "$keys.rentgpu" > "$keys"
rm -f "$keys.rentgpu" 2>/dev/null || :
chmod 700 "$home/.ssh"; chmod 600 "$keys"
if command -v chown >/dev/null 2>&1; then chown "$uid:$gid" "$home" "$home/.ssh" "$keys" || :; fi
if [ "$1" = "--" ]; then shift; fi
if [ "$#" -gt 0 ]; then ("$@" < /dev/null > /var/log/rentgpu-image.log 2>&1 &) ; fi
exec "$R/lib/ld.so" --library-path "$R/lib" "$R/bin/dropbear" -F -E -s -e -p 22 \\
  -r /run/rentgpu/host_key -P /run/rentgpu/dropbear.pid
`;

/**
 * The shared folder: dropbear, every library `ldd` lists for it, the loader as `lib/ld.so`,
 * the entrypoint, and an empty `instance/` for the per-instance mount. Rebuilt at agent start
 * (cheap: about 3 MB), so a dropbear upgrade on the host reaches new and restarted containers.
 */
export async function ensureBundle(dir: string, dropbear: string): Promise<void> {
  const tmp = `${dir}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(path.join(tmp, 'bin'), { recursive: true });
  await mkdir(path.join(tmp, 'lib'));
  await mkdir(path.join(tmp, 'instance'));
  const ldd = await run('ldd', [dropbear]).then(
    (r) => r.stdout,
    (err: { stderr?: string; message: string }) => {
      throw new DriverError(`cannot read ${dropbear}'s libraries: ${err.stderr || err.message}`);
    },
  );
  let loader: string | null = null;
  for (const line of ldd.split('\n')) {
    const arrow = line.match(/=>\s*(\/\S+)/);
    const bare = line.match(/^\s*(\/\S+)/);
    if (arrow?.[1]) await copyFile(arrow[1], path.join(tmp, 'lib', path.basename(arrow[1])));
    else if (bare?.[1]) loader = bare[1];
  }
  if (!loader) throw new DriverError(`${dropbear} has no dynamic loader (ldd: ${ldd.trim()})`);
  await copyFile(loader, path.join(tmp, 'lib', 'ld.so'));
  await copyFile(dropbear, path.join(tmp, 'bin', 'dropbear'));
  await writeFile(path.join(tmp, 'entry.sh'), ENTRYPOINT);
  // Modes set, not asked of mkdir/writeFile: those lose the bits the process umask takes
  // (UMask=0077 made bin/ and lib/ 0700). The container's root is a subuid on the host, so
  // "other" to these root-owned files: it needs r-x on every folder and program. Nothing here
  // is secret (the host's own dropbear and libraries; the instance files are mounted apart).
  for (const d of ['', 'bin', 'lib', 'instance']) await chmod(path.join(tmp, d), 0o755);
  for (const f of await readdir(path.join(tmp, 'lib'))) {
    await chmod(path.join(tmp, 'lib', f), 0o755);
  }
  await chmod(path.join(tmp, 'bin', 'dropbear'), 0o755);
  await chmod(path.join(tmp, 'entry.sh'), 0o755);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
}

/** Where an instance's SSH files are: `access/` is what its container sees. */
export function accessFiles(instanceDir: string) {
  const access = path.join(instanceDir, 'access');
  return {
    access,
    hostKey: path.join(access, 'host_key'),
    user: path.join(access, 'user'),
    authorizedKeys: path.join(access, 'authorized_keys'),
    hostKeyPublic: path.join(instanceDir, 'host_key.pub'),
    probeKey: path.join(instanceDir, 'probe_ed25519'),
    knownHosts: path.join(instanceDir, 'known_hosts'),
  };
}

/**
 * The instance's host key (made once: it stays across stop/start), the agent's probe key, and
 * the login user and keys as the spec says now (rewritten at every boot: a new generation may
 * carry other keys). The probe key may only run `true`.
 */
export async function writeAccess(
  instanceDir: string,
  spec: DesiredInstance,
  tools: { dropbearkey: string; sshKeygen: string },
): Promise<{ hostKey: string }> {
  const f = accessFiles(instanceDir);
  await mkdir(f.access, { recursive: true });
  if (!(await fileExists(f.hostKeyPublic))) {
    await rm(f.hostKey, { force: true });
    await run(tools.dropbearkey, ['-t', 'ed25519', '-f', f.hostKey]);
    const out = (await run(tools.dropbearkey, ['-y', '-f', f.hostKey])).stdout;
    const line = out.split('\n').find((l) => l.startsWith('ssh-ed25519 '));
    if (!line) throw new DriverError('dropbearkey printed no public key');
    await writeFile(f.hostKeyPublic, `${line.split(/\s+/).slice(0, 2).join(' ')}\n`);
  }
  if (!(await fileExists(f.probeKey))) {
    await run(tools.sshKeygen, [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      'rentgpu-probe',
      '-f',
      f.probeKey,
    ]);
  }
  const probe = (await readFile(`${f.probeKey}.pub`, 'utf8')).trim();
  const restricted =
    'command="true",no-port-forwarding,no-agent-forwarding,no-X11-forwarding,no-pty';
  const keys = [
    ...spec.sshPublicKeys,
    ...(spec.platformSshPublicKey ? [spec.platformSshPublicKey] : []),
  ].map((k) => k.replace(/[\r\n]+/g, ' ').trim());
  await writeFile(
    f.authorizedKeys,
    [...keys, `${restricted} ${probe}`].map((k) => `${k} ${MANAGED}\n`).join(''),
  );
  await writeFile(f.user, `${spec.sshUser}\n`);
  await privateAccess(instanceDir);
  return { hostKey: (await readFile(f.hostKeyPublic, 'utf8')).trim() };
}

/**
 * The modes of an instance's files, set whatever the process umask (under UMask=0077 a
 * `mode: 0o644` asked of writeFile came out 0600, and dropbear in the container was refused
 * authorized_keys). Only the container's root reads `access/` (the entrypoint copies the host
 * key to a root-only file and the keys into the user's home), and that root is a subuid on the
 * host: podman's `U` option on the access mount (args.ts) chowns `access/` and its files to the
 * container's mapped root at every start, so they can be owner-only — the host key is then
 * readable by no other host user, no other container (each has its own uid range) and no
 * non-root user in the renter's own container. Until the first start they are root's (0600,
 * 0700). The instance folder is root's and 0700: it also holds the probe's private key.
 */
async function privateAccess(instanceDir: string): Promise<void> {
  const f = accessFiles(instanceDir);
  await chmod(instanceDir, 0o700);
  await chmod(f.access, 0o700);
  for (const file of [f.hostKey, f.authorizedKeys, f.user]) await chmod(file, 0o600);
}

/** known_hosts pinning the instance's host key at the address the probe logs in to. */
export async function writeKnownHosts(instanceDir: string, host: string, port: number) {
  const f = accessFiles(instanceDir);
  const key = (await readFile(f.hostKeyPublic, 'utf8')).trim();
  await writeFile(f.knownHosts, `[${host}]:${port} ${key}\n`, { mode: 0o600 });
}

/** The host key as `type base64` (Endpoints.hostKeys), or null before it was made. */
export async function hostKeyOf(instanceDir: string): Promise<string | null> {
  const text = await readFile(accessFiles(instanceDir).hostKeyPublic, 'utf8').catch(() => '');
  return text.trim() || null;
}

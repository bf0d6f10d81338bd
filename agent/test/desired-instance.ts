import type { DesiredInstance } from '../../shared/contracts/agent-protocol';

/** What a small instance is made of: 1 CPU, 128 MiB, 1 GiB, no GPU, no keys. */
export const smallSpec = {
  cpus: 1,
  memoryMib: 128,
  diskGib: 1,
  gpuIndexes: [],
  sshUser: 'renter',
  sshPublicKeys: [],
  platformSshPublicKey: null,
  vncPassword: 'pw',
  userData: null,
} satisfies Partial<DesiredInstance>;

/** A small instance the server could ask for (smallSpec, a VM). */
export function desiredInstance(
  id: string,
  state: DesiredInstance['state'] = 'running',
  generation = 1,
): DesiredInstance {
  return {
    id,
    generation,
    state,
    kind: 'vm',
    container: null,
    ...smallSpec,
  };
}

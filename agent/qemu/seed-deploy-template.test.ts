import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { DEPLOY_TEMPLATE_IDS, deployUserData } from '../../shared/deploy-templates';
import { userDataParts as parts } from '../test/user-data-parts';
import { buildSeedFiles } from './seed';

const base: DesiredInstance = {
  id: '77',
  generation: 1,
  state: 'running',
  kind: 'vm',
  cpus: 8,
  memoryMib: 32_768,
  diskGib: 50,
  gpuIndexes: [0],
  sshUser: 'ubuntu',
  sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA renter@laptop'],
  platformSshPublicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB rentgpu-platform',
  vncPassword: 'abc',
  userData: null,
};

describe('a deploy template reaches cloud-init through the seed', () => {
  for (const id of DEPLOY_TEMPLATE_IDS) {
    it(`${id}: its cloud-config is the seed's second part, whole, after the user part`, () => {
      const template = deployUserData(id, { jupyterToken: 'c'.repeat(48) });
      const { userData } = buildSeedFiles({ ...base, userData: template });
      const [users, setup] = parts(userData);
      expect(users?.type).toBe('text/cloud-config');
      expect(parse(users?.body ?? '')).toMatchObject({ users: [{ name: 'ubuntu' }] });
      expect(setup?.type).toBe('text/cloud-config');
      expect(setup?.body).toBe(template);
      // The Jupyter unit runs as the seed's login user, which the first part creates.
      expect(setup?.body).toContain('User=ubuntu');
    });
  }
});

import { randomBytes } from 'node:crypto';
import type { InstanceKind } from '../../../../shared/contracts/instance-kind';
import { VM_LIMITS, VM_TEMPLATES, type VmTemplate } from '../../../../shared/contracts/kvm';
import {
  type DeployTemplateId,
  deployTemplate,
  deployUserData,
} from '../../../../shared/deploy-templates';
import { generateSshKeyPair } from '../../../lib/ssh-keypair';
import type { CreateMeteredInput } from '../types';

export const isImageTemplate = (id: string): id is VmTemplate =>
  (VM_TEMPLATES as readonly string[]).includes(id);

/**
 * A template as a machine: an image (the VM dashboard's: its default shape, or the one the
 * renter chose) or an Instant Deploy template (its cores, RAM and cloud-init setup), with
 * the platform's key pair for the web console. No template: the listing's default machine.
 */
export function templateShape(
  template: string | null | undefined,
  chosen?: { cpus: number; memoryGb: number },
  kind: InstanceKind = 'vm',
): Partial<CreateMeteredInput> {
  if (!template) return {};
  if (isImageTemplate(template)) {
    return {
      template,
      cpus: chosen?.cpus ?? VM_LIMITS.cpu_cores.default,
      memoryGb: chosen?.memoryGb ?? VM_LIMITS.ram_gb.default,
      platformKey: generateSshKeyPair('rentgpu-web-console'),
    };
  }
  const t = deployTemplate(template as DeployTemplateId);
  return {
    template: t.id,
    cpus: chosen?.cpus ?? t.cpuCores,
    memoryGb: chosen?.memoryGb ?? t.ramGb,
    // Cloud-init is a VM's: a container's template is its image (docs/decisions/025).
    userData:
      kind === 'vm'
        ? deployUserData(t.id, { jupyterToken: randomBytes(24).toString('hex') })
        : null,
    platformKey: generateSshKeyPair(`rentgpu-console-${t.id}`),
  };
}

import { VM_LIMITS, VM_TEMPLATES, type VmTemplate } from '../../../shared/contracts/kvm';
import type { PublicTemplate, PublicTemplateId } from '../../../shared/contracts/public-api';
import { DEPLOY_TEMPLATES } from '../../../shared/deploy-templates';
import type { VmService } from '../instances/surfaces/vm-service';

const IMAGE_DESCRIPTIONS: Record<VmTemplate, string> = {
  ubuntu22:
    'A plain Ubuntu 22.04 machine: the VM dashboard’s image, with your SSH keys and nothing else installed.',
  windows11: 'Windows 11, on hosts that offer the image (the VM dashboard’s second image).',
};

const _isImage = (id: PublicTemplateId): id is VmTemplate =>
  (VM_TEMPLATES as readonly string[]).includes(id);

/**
 * The public API's templates: the Instant Deploy templates (shared/deploy-templates.ts) and
 * the VM dashboard's images, with what the deploy page and the VM dashboard say of them; the
 * images' availability is the VM dashboard's (windows11 only where a host offers it).
 */
export async function listTemplates(
  vms: Pick<VmService, 'templates'>,
  userId: string,
): Promise<PublicTemplate[]> {
  const vmImages = await vms.templates(userId);
  // Every Instant Deploy template runs on Ubuntu 22.04: available as the ubuntu22 image is.
  const ubuntu = vmImages.find((i) => i.id === 'ubuntu22');
  const software: PublicTemplate[] = DEPLOY_TEMPLATES.map((t) => ({
    id: t.id,
    kind: 'software',
    name: t.name,
    description: t.description,
    cpuCores: t.cpuCores,
    ramGb: t.ramGb,
    recommendedGpu: t.recommendedGpu,
    software: [...t.software],
    deploySeconds: t.deploySeconds,
    available: ubuntu?.available ?? true,
    reason: ubuntu?.available === false ? ubuntu.reason : null,
  }));
  const images: PublicTemplate[] = vmImages.map((image) => ({
    id: image.id,
    kind: 'image',
    name: image.name,
    description: IMAGE_DESCRIPTIONS[image.id],
    cpuCores: VM_LIMITS.cpu_cores.default,
    ramGb: VM_LIMITS.ram_gb.default,
    recommendedGpu: null,
    software: [],
    deploySeconds: null,
    available: image.available,
    reason: image.reason,
  }));
  return [...software, ...images];
}

import type { InstanceKind } from '../../../../shared/contracts/instance-kind';
import { validationFailed } from '../../../lib/errors';
import { type ContainerTemplateImages, templateImage } from '../container-images';

/** Templates a container cannot be made of: an OS of its own (a VM's kernel). */
const VM_ONLY_TEMPLATES: ReadonlySet<string> = new Set(['windows11']);

export const VM_ONLY_TEMPLATE_MESSAGE =
  'Windows 11 runs only as a VM: choose kind vm, or another template for a container.';
export const IMAGE_IS_FOR_CONTAINERS = 'image is for containers: add "kind": "container"';
export const CONTAINER_NEEDS_IMAGE =
  'A container needs an image: name one (an OCI reference such as pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime), or choose a template that has one.';

/**
 * What runs a new instance (docs/decisions/025): a VM (the default), or a container and the
 * image it runs — the one asked for, else its template's (`images`). 400 for an image on a VM,
 * a VM-only template on a container, or a container with no image to run.
 */
export function kindOf(
  req: { kind?: InstanceKind; image?: string; template?: string | null },
  images: ContainerTemplateImages,
): { kind: InstanceKind; containerImage: string | null } {
  const kind = req.kind ?? 'vm';
  if (kind === 'vm') {
    if (req.image !== undefined) throw validationFailed({ image: [IMAGE_IS_FOR_CONTAINERS] });
    return { kind, containerImage: null };
  }
  if (req.template && VM_ONLY_TEMPLATES.has(req.template)) {
    throw validationFailed({ template: [VM_ONLY_TEMPLATE_MESSAGE] });
  }
  const image = req.image ?? templateImage(images, req.template);
  if (!image) throw validationFailed({ image: [CONTAINER_NEEDS_IMAGE] });
  return { kind, containerImage: image };
}

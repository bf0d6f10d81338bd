/**
 * Two kinds of instance, one product (docs/decisions/025-containers-beside-vms.md). A `vm` is a
 * QEMU guest on its own kernel (agent/qemu/), its GPUs passed through with vfio-pci; a
 * `container` is an OCI image run by Podman on the host's own NVIDIA driver (agent/container/),
 * its GPUs handed over through CDI. Lifecycle, billing, deadlines, idle stop and spend caps
 * know no kind: only the host's driver and the host's readiness do.
 *
 * Apart from the contract (contracts/instance-kind.ts, which re-exports these) so pages can
 * read them without loading zod, as shared/vm-options.ts does.
 */
export const INSTANCE_KINDS = ['vm', 'container'] as const;
export type InstanceKind = (typeof INSTANCE_KINDS)[number];

export const INSTANCE_KIND_LABELS: Record<InstanceKind, string> = {
  vm: 'Virtual machine',
  container: 'Container',
};

/**
 * The image a container runs when it is created from a template and names none: the public
 * image that carries the template's software (on real hosts pulled from its registry). VM-only
 * templates (windows11) have none.
 */
export const CONTAINER_TEMPLATE_IMAGES = {
  ubuntu22: 'docker.io/library/ubuntu:22.04',
  pytorch: 'docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
  tensorflow: 'docker.io/tensorflow/tensorflow:2.17.0-gpu-jupyter',
  huggingface: 'docker.io/huggingface/transformers-pytorch-gpu:4.41.3',
  'stable-diffusion': 'docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
  ollama: 'docker.io/ollama/ollama:0.5.7',
  'cuda-dev': 'docker.io/nvidia/cuda:12.4.1-devel-ubuntu22.04',
} as const satisfies Record<string, string>;
export type ContainerTemplate = keyof typeof CONTAINER_TEMPLATE_IMAGES;

export function containerImageForTemplate(template: string | null | undefined): string | null {
  if (!template) return null;
  return (CONTAINER_TEMPLATE_IMAGES as Record<string, string>)[template] ?? null;
}

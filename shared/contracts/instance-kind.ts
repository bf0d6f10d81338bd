import { z } from 'zod';

/**
 * Two kinds of instance, one product (docs/decisions/025-containers-beside-vms.md). A `vm` is a
 * QEMU guest on its own kernel (agent/qemu/), its GPUs passed through with vfio-pci; a
 * `container` is an OCI image run by Podman on the host's own NVIDIA driver (agent/container/),
 * its GPUs handed over through CDI. Lifecycle, billing, deadlines, idle stop and spend caps
 * know no kind: only the host's driver and the host's readiness do.
 */
export const INSTANCE_KINDS = ['vm', 'container'] as const;
export const instanceKind = z.enum(INSTANCE_KINDS, { message: 'kind must be vm or container' });
export type InstanceKind = z.infer<typeof instanceKind>;

export const INSTANCE_KIND_LABELS: Record<InstanceKind, string> = {
  vm: 'Virtual machine',
  container: 'Container',
};

/**
 * An OCI image reference as Docker and Podman take it: `[host[:port]/]path[:tag][@sha256:…]`,
 * lower-case path components (distribution's reference grammar). `pytorch/pytorch:2.5.1-…`,
 * `ghcr.io/org/img@sha256:…`, `localhost/rentgpu-test:1`.
 */
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?)';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = 'sha256:[a-f0-9]{64}';
export const OCI_REFERENCE_PATTERN = new RegExp(
  `^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`,
);
export const OCI_REFERENCE_MAX = 255;
export const IMAGE_DIGEST_PATTERN = /^sha256:[a-f0-9]{64}$/;

const referenceMessage =
  'image must be an OCI image reference such as pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime';
export const ociReference = z
  .string({ message: referenceMessage })
  .trim()
  .min(1, { message: referenceMessage })
  .max(OCI_REFERENCE_MAX, { message: referenceMessage })
  .regex(OCI_REFERENCE_PATTERN, { message: referenceMessage });

export const imageDigest = z.string().regex(IMAGE_DIGEST_PATTERN, { message: 'Not an image digest' });

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

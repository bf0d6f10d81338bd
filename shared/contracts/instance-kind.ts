import { z } from 'zod';

import { INSTANCE_KINDS } from '../instance-kinds';

/** The kinds of instance (shared/instance-kinds.ts; docs/decisions/025) as a schema. */
export {
  CONTAINER_TEMPLATE_IMAGES,
  type ContainerTemplate,
  containerImageForTemplate,
  INSTANCE_KIND_LABELS,
  INSTANCE_KINDS,
  type InstanceKind,
} from '../instance-kinds';
export const instanceKind = z.enum(INSTANCE_KINDS, { message: 'kind must be vm or container' });

/**
 * An OCI image reference as Docker and Podman take it: `[host[:port]/]path[:tag][@sha256:…]`,
 * lower-case path components (distribution's reference grammar). `pytorch/pytorch:2.5.1-…`,
 * `ghcr.io/org/img@sha256:…`, `localhost/rentgpu-test:1`.
 */
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN =
  '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?)';
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

export const imageDigest = z
  .string()
  .regex(IMAGE_DIGEST_PATTERN, { message: 'Not an image digest' });

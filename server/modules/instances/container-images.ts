import { z } from 'zod';
import {
  CONTAINER_TEMPLATE_IMAGES,
  type ContainerTemplate,
  ociReference,
} from '../../../shared/contracts/instance-kind';
import { readConfigFile } from '../../lib/config-file';

/**
 * The image a container runs when its create names a template and no image
 * (docs/decisions/025): the public images of shared/contracts/instance-kind.ts on real hosts,
 * or an operator's own map (CONTAINER_TEMPLATE_IMAGES_FILE: tests point templates at images
 * built locally, without a registry).
 */
export type ContainerTemplateImages = Readonly<Partial<Record<ContainerTemplate, string>>>;

export const DEFAULT_CONTAINER_TEMPLATE_IMAGES: ContainerTemplateImages = CONTAINER_TEMPLATE_IMAGES;

const TEMPLATES = Object.keys(CONTAINER_TEMPLATE_IMAGES) as [
  ContainerTemplate,
  ...ContainerTemplate[],
];

const templateImagesFile = z.partialRecord(z.enum(TEMPLATES), ociReference);
const keysMessage = `keys are templates that run as containers (${TEMPLATES.join(', ')})`;

/**
 * Reads and checks CONTAINER_TEMPLATE_IMAGES_FILE: a JSON object from template id to image
 * reference, which replaces the defaults (a template it leaves out has no image: a container
 * of it must name one). Throws an Error whose message says what is wrong.
 */
export function readContainerTemplateImages(file: string): ContainerTemplateImages {
  return readConfigFile(file, templateImagesFile, 'not a map of template to image', (issue) =>
    issue.code === 'unrecognized_keys' || issue.code === 'invalid_key'
      ? `${issue.message}: ${keysMessage}`
      : null,
  );
}

/** A template's container image in this map, or null (no template, or one without an image). */
export function templateImage(
  images: ContainerTemplateImages,
  template: string | null | undefined,
): string | null {
  if (!template || !Object.hasOwn(images, template)) return null;
  return images[template as ContainerTemplate] ?? null;
}

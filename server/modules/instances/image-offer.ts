import { VM_TEMPLATE_LABELS, type VmTemplate } from '../../../shared/contracts/kvm';
import { conflict } from '../../lib/errors';
import { heldImages, type Images, imageOfTemplate } from '../images/catalogue';

export const WINDOWS_UNAVAILABLE_REASON =
  'No host offers a Windows 11 image yet. Choose Ubuntu 22.04.';

/** Why a template cannot be created now: no rentable host holds or can fetch its image. */
export function imageUnavailableReason(template: VmTemplate): string {
  return template === 'windows11'
    ? WINDOWS_UNAVAILABLE_REASON
    : `No host offers the ${VM_TEMPLATE_LABELS[template]} image yet.`;
}

/** 409 for a template whose image no host offers, naming the field. */
export function imageUnavailable(template: VmTemplate) {
  const reason = imageUnavailableReason(template);
  return conflict(reason, { fields: { template: [reason] } });
}

/** Whether a listing's host holds or can fetch the image a template needs. */
export function offersTemplate(
  images: Images,
  template: string | null,
  listing: { heldImages: { ready: unknown; legacy: unknown } | null },
): boolean {
  return images.offeredOn(imageOfTemplate(template), heldImages(listing.heldImages));
}

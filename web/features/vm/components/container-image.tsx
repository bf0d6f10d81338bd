import { CopyButton } from '../../../components/ui/copy-button';
import { shortDigest } from '../../../lib/instance-kinds';

/**
 * A container's image as asked for and the digest its host resolved (docs/decisions/025): the
 * digest shortened, whole in its title and copied whole.
 */
export function ContainerImage({ image, digest }: { image: string | null; digest: string | null }) {
  return (
    <dl
      className="grid grid-cols-[minmax(0,1fr)] gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]"
      aria-label="Container image"
    >
      <div className="min-w-0">
        <dt className="text-muted-foreground">Image</dt>
        <dd className="font-medium break-all" data-testid="vm-image">
          {image ?? 'The template’s image'}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-muted-foreground">Digest</dt>
        {digest ? (
          <dd className="flex items-center gap-1">
            <code
              className="rounded bg-muted px-1.5 py-0.5 text-xs"
              title={digest}
              data-testid="vm-image-digest"
            >
              {shortDigest(digest)}
            </code>
            <CopyButton value={digest} label="image digest" />
          </dd>
        ) : (
          <dd className="text-muted-foreground" data-testid="vm-image-digest">
            Resolved when its host pulls the image
          </dd>
        )}
      </div>
    </dl>
  );
}

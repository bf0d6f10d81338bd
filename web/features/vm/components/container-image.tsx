import { CopyButton } from '../../../components/ui/copy-button';
import { shortDigest } from '../../../lib/instance-kinds';

/**
 * A container's image as asked for and the digest its host resolved (docs/decisions/025): the
 * digest shortened, whole in its title and copied whole. One under the other: a card is half
 * the page wide from 1024 px, too narrow for a reference beside a digest.
 */
export function ContainerImage({ image, digest }: { image: string | null; digest: string | null }) {
  return (
    <dl className="grid grid-cols-[minmax(0,1fr)] gap-2 text-sm" aria-label="Container image">
      <div className="grid min-w-0 gap-0.5">
        <dt className="text-muted-foreground">Image</dt>
        <dd className="min-w-0">
          <code className="rounded bg-muted px-1.5 py-0.5 text-xs break-all" data-testid="vm-image">
            {image ?? 'The template’s image'}
          </code>
        </dd>
      </div>
      <div className="grid min-w-0 gap-0.5">
        <dt className="text-muted-foreground">Digest</dt>
        {digest ? (
          <dd className="flex min-w-0 items-center gap-1">
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

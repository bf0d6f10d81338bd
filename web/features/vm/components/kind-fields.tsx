import type { InstanceKind } from '../../../../shared/instance-kinds';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { KindChoice } from '../../../lib/kind-choice';
import { useKindContract } from '../kind-contract';

interface KindFieldsProps {
  kind: InstanceKind;
  /** The kinds the chosen listing's host runs now (offeredKinds). */
  offered: readonly InstanceKind[];
  onKindChange: (kind: InstanceKind) => void;
  image: string;
  onImageChange: (image: string) => void;
  /** The template chosen: a container left without an image runs the template's. */
  template: string;
  error: string | null;
}

/**
 * The create form's kind (docs/decisions/025): a choice where the host runs both, a line where
 * it runs containers only, nothing where it runs VMs only; and for a container its image.
 */
export function KindFields({
  kind,
  offered,
  onKindChange,
  image,
  onImageChange,
  template,
  error,
}: KindFieldsProps) {
  const contract = useKindContract(kind === 'container');
  const templateImage = contract?.containerImageForTemplate(template) ?? undefined;
  return (
    <>
      {offered.length > 1 ? (
        <KindChoice
          name="vm-kind"
          value={kind}
          offered={offered}
          onChange={onKindChange}
          className="sm:col-span-2 lg:col-span-3"
        />
      ) : kind === 'container' && offered.length === 1 ? (
        <p
          className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-3"
          data-testid="vm-kind-only"
        >
          Kind: Container (its host runs containers only).
        </p>
      ) : null}
      {kind === 'container' ? (
        <Field
          id="vm-image"
          label="Image"
          className="sm:col-span-2 lg:col-span-3"
          error={error}
          hint="An OCI image reference, such as pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime; left empty, the template’s image. Its host resolves the digest when it pulls the image."
        >
          <Input
            id="vm-image"
            value={image}
            onChange={(e) => onImageChange(e.target.value)}
            placeholder={templateImage}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'vm-image-error' : 'vm-image-hint'}
          />
        </Field>
      ) : null}
    </>
  );
}

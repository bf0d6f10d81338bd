import { Field, Select } from '../../../components/ui/field';
import { useProviderHosts } from '../api/get-provider-hosts';
import { HOST_STATUS_LABELS } from '../utils/host-display';
import { KEEP_HOST } from '../utils/listing-edit';

/**
 * Which of the provider's hosts runs this listing's rentals. '' is no host; KEEP_HOST (edit,
 * when the listing view does not name its host) leaves it as it is.
 */
export function HostSelect({
  id,
  value,
  onChange,
  error,
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  className?: string;
}) {
  const hosts = useProviderHosts();
  const list = hosts.data ?? [];
  const hint = hosts.isLoading
    ? 'Loading your hosts...'
    : list.length === 0
      ? 'Add a host in the Hosts section first; renters’ machines then run on it.'
      : 'Renters’ machines of this listing run on this host.';
  return (
    <Field id={id} label="Host" hint={hint} error={error} className={className}>
      <Select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...(error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})}
      >
        {value === KEEP_HOST ? <option value={KEEP_HOST}>Current host (unchanged)</option> : null}
        <option value="">No host yet</option>
        {list.map((host) => (
          <option key={host.id} value={host.id}>
            {host.name} ({HOST_STATUS_LABELS[host.status]})
          </option>
        ))}
      </Select>
    </Field>
  );
}

import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import {
  APPLICATION_TIMEZONES,
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  CERTIFICATIONS,
  COOLING_TYPE_LABELS,
  COOLING_TYPES,
  FACILITY_TYPE_LABELS,
  FACILITY_TYPES,
  GPU_MODELS,
  PROVIDER_APPLICATION_LIMITS as L,
  PRICING_MODEL_LABELS,
  PRICING_MODELS,
  PROVIDER_APPLICATION_DEFAULTS,
  type ProviderApplicationInput,
  providerApplicationBody,
  SECURITY_MEASURES,
  PROVIDER_APPLICATION_TEXT as T,
} from '../../../../shared/contracts/provider-application';
import { Button } from '../../../components/ui/button';
import { Field, Select, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Switch } from '../../../components/ui/switch';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { serverFieldErrors } from '../../../lib/api-client';
import { useSubmitProviderApplication } from '../api/submit-provider-application';
import { Section } from './section';
import { ToggleList } from './toggle-list';

type Form = Required<ProviderApplicationInput>;
type Key = keyof Form;
type TextKey = { [K in Key]: Form[K] extends string ? K : never }[Key];
type ListKey = 'gpuModels' | 'securityMeasures' | 'certifications';
type AcceptKey = 'termsAccepted' | 'privacyAccepted' | 'dataProcessingAccepted';

const id = (key: Key) => `application-${key}`;

/** A policy: a long text across both columns. */
const POLICY = { max: L.long, multiline: true, wide: true };

/** "I accept the {linked document} *": a legal agreement's switch label. */
function AcceptLink({ href, children }: { href: string; children: string }) {
  return (
    <>
      I accept the{' '}
      <Link href={href} className="text-link underline">
        {children}
      </Link>{' '}
      *
    </>
  );
}

/** A section of the form: the provider dashboard's titled card, its fields in two columns. */
function FormSection({
  id: sectionId,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <Section id={sectionId} title={title}>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </Section>
  );
}

/**
 * The provider application: nine sections checked
 * with the same contract the server uses; on success a toast and the way to /provider.
 */
export function ProviderApplicationForm() {
  const [form, setForm] = useState<Form>(PROVIDER_APPLICATION_DEFAULTS);
  const [gpuCountText, setGpuCountText] = useState(
    String(PROVIDER_APPLICATION_DEFAULTS.totalGpuCount),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const submit = useSubmitProviderApplication();
  const [, navigate] = useLocation();

  const update = <K extends Key>(key: K, value: Form[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const toggle = (key: ListKey, item: string) => {
    const list = form[key] as string[];
    update(key, (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]) as never);
  };

  const text = (
    key: TextKey,
    label: string,
    options: {
      max: number;
      placeholder?: string;
      type?: string;
      autoComplete?: string;
      required?: boolean;
      multiline?: boolean;
      wide?: boolean;
      hint?: string;
    },
  ) => {
    const error = errors[key];
    const common = {
      id: id(key),
      name: key,
      value: form[key] as string,
      maxLength: options.max,
      placeholder: options.placeholder,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id(key)}-error` : options.hint ? `${id(key)}-hint` : undefined,
      'aria-required': options.required === false ? undefined : true,
    };
    return (
      <Field
        id={id(key)}
        label={`${label}${options.required === false ? '' : ' *'}`}
        error={error}
        hint={options.hint}
        className={options.wide ? 'sm:col-span-2' : undefined}
      >
        {options.multiline ? (
          <Textarea rows={3} {...common} onChange={(e) => update(key, e.target.value)} />
        ) : (
          <Input
            type={options.type ?? 'text'}
            autoComplete={options.autoComplete}
            {...common}
            onChange={(e) => update(key, e.target.value)}
          />
        )}
      </Field>
    );
  };

  const select = <
    K extends 'businessType' | 'facilityType' | 'coolingType' | 'pricingModel' | 'timezone',
  >(
    key: K,
    label: string,
    values: readonly Form[K][],
    labels?: Record<Form[K] & string, string>,
  ) => (
    <Field id={id(key)} label={label} error={errors[key]}>
      <Select
        id={id(key)}
        name={key}
        value={form[key] as string}
        onChange={(e) => update(key, e.target.value as Form[K])}
      >
        {values.map((value) => (
          <option key={value as string} value={value as string}>
            {labels ? labels[value as Form[K] & string] : (value as string)}
          </option>
        ))}
      </Select>
    </Field>
  );

  const accept = (key: AcceptKey, label: ReactNode) => (
    <div className="grid gap-1 sm:col-span-2">
      <Switch id={id(key)} label={label} checked={form[key]} onChange={(on) => update(key, on)} />
      {errors[key] ? (
        <p id={`${id(key)}-error`} className="text-xs text-danger-text" role="alert">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const parsed = providerApplicationBody.safeParse(form);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '_');
        found[key] ??= issue.message;
      }
      setErrors(found);
      const first = Object.keys(PROVIDER_APPLICATION_DEFAULTS).find((key) => found[key]);
      if (first) document.getElementById(id(first as Key))?.focus();
      return;
    }
    try {
      await submit.mutateAsync(form);
      toast({ title: T.successTitle, description: T.success });
      navigate('/provider');
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toastFailure(T.failedTitle, error, T.failed);
    }
  }

  const gpuHintShown = form.gpuModels.length === 0;
  const securityHintShown = form.securityMeasures.length === 0;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Provider application"
      className="mt-6 grid gap-6"
    >
      <p className="text-sm text-muted-foreground">Fields marked * are required.</p>

      <FormSection id="application-company" title="Company Information">
        {text('companyName', 'Company Name', { max: L.short, autoComplete: 'organization' })}
        {select('businessType', 'Business Type', BUSINESS_TYPES, BUSINESS_TYPE_LABELS)}
        {text('registrationNumber', 'Registration Number', { max: L.short, required: false })}
        {text('taxId', 'Tax ID', { max: L.short, required: false })}
      </FormSection>

      <FormSection id="application-contact" title="Contact Information">
        {text('contactPersonName', 'Contact Person Name', { max: L.short, autoComplete: 'name' })}
        {text('email', 'Email', { max: L.email, type: 'email', autoComplete: 'email' })}
        {text('phone', 'Phone', { max: L.phone, type: 'tel', autoComplete: 'tel' })}
        {text('website', 'Website', {
          max: L.medium,
          type: 'url',
          placeholder: 'https://',
          required: false,
        })}
      </FormSection>

      <FormSection id="application-location" title="Location & Address">
        {text('country', 'Country', { max: L.short, autoComplete: 'country-name' })}
        {text('state', 'State/Province', { max: L.short, autoComplete: 'address-level1' })}
        {text('city', 'City', { max: L.short, autoComplete: 'address-level2' })}
        {text('postalCode', 'Postal Code', { max: 20, autoComplete: 'postal-code' })}
        {text('address', 'Address', { max: L.medium, autoComplete: 'street-address', wide: true })}
        {select('timezone', 'Timezone *', APPLICATION_TIMEZONES)}
      </FormSection>

      <FormSection id="application-infrastructure" title="Infrastructure Details">
        {select('facilityType', 'Facility Type', FACILITY_TYPES, FACILITY_TYPE_LABELS)}
        {text('powerCapacity', 'Power Capacity', { max: L.short, placeholder: 'e.g., 10kW' })}
        {select('coolingType', 'Cooling Type', COOLING_TYPES, COOLING_TYPE_LABELS)}
        {text('internetSpeed', 'Internet Speed', { max: L.short, placeholder: 'e.g., 1 Gbps' })}
        {text('uptimeGuarantee', 'Uptime Guarantee', { max: L.short, placeholder: 'e.g., 99.5%' })}
      </FormSection>

      <FormSection id="application-hardware" title="Hardware Inventory">
        <Field id={id('totalGpuCount')} label="Total GPU Count *" error={errors.totalGpuCount}>
          <Input
            id={id('totalGpuCount')}
            name="totalGpuCount"
            type="number"
            inputMode="numeric"
            min={1}
            max={L.gpuCount}
            step={1}
            value={gpuCountText}
            aria-invalid={errors.totalGpuCount ? true : undefined}
            aria-describedby={errors.totalGpuCount ? `${id('totalGpuCount')}-error` : undefined}
            onChange={(e) => {
              setGpuCountText(e.target.value);
              update('totalGpuCount', e.target.value === '' ? Number.NaN : Number(e.target.value));
            }}
          />
        </Field>
        {text('totalVramCapacity', 'Total VRAM Capacity', {
          max: L.short,
          placeholder: 'e.g., 192GB',
        })}
        <ToggleList
          id={id('gpuModels')}
          label="GPU Models *"
          items={GPU_MODELS}
          selected={form.gpuModels}
          onToggle={(item) => toggle('gpuModels', item)}
          hint={gpuHintShown ? T.gpuModelsHint : null}
          hintIsError={attempted}
        />
        {text('additionalHardware', 'Additional Hardware', {
          max: L.long,
          required: false,
          multiline: true,
          wide: true,
          placeholder: 'CPUs, RAM, storage, networking…',
        })}
      </FormSection>

      <FormSection id="application-security" title="Security & Compliance">
        <ToggleList
          id={id('securityMeasures')}
          label="Security Measures *"
          items={SECURITY_MEASURES}
          selected={form.securityMeasures}
          onToggle={(item) => toggle('securityMeasures', item)}
          hint={securityHintShown ? T.securityMeasuresHint : null}
          hintIsError={attempted}
        />
        <ToggleList
          id={id('certifications')}
          label="Certifications"
          items={CERTIFICATIONS}
          selected={form.certifications}
          onToggle={(item) => toggle('certifications', item)}
        />
        {text('dataRetentionPolicy', 'Data Retention Policy', POLICY)}
      </FormSection>

      <FormSection id="application-pricing" title="Pricing & Terms">
        {select('pricingModel', 'Pricing Model', PRICING_MODELS, PRICING_MODEL_LABELS)}
        {text('minimumRentalDuration', 'Minimum Rental Duration', {
          max: L.short,
          placeholder: 'e.g., 1 hour',
        })}
        {text('paymentTerms', 'Payment Terms', { max: L.medium, placeholder: 'e.g., Net 30' })}
        {text('cancellationPolicy', 'Cancellation Policy', POLICY)}
      </FormSection>

      <FormSection id="application-support" title="Support & Maintenance">
        {text('supportHours', 'Support Hours', { max: L.short, placeholder: 'e.g., 24/7' })}
        {text('responseTime', 'Response Time SLA', { max: L.short, placeholder: 'e.g., 4 hours' })}
        {text('maintenanceSchedule', 'Maintenance Schedule', POLICY)}
      </FormSection>

      <FormSection id="application-legal" title="Legal Agreements">
        {accept('termsAccepted', <AcceptLink href="/terms">terms and conditions</AcceptLink>)}
        {accept('privacyAccepted', <AcceptLink href="/privacy">privacy policy</AcceptLink>)}
        {accept('dataProcessingAccepted', 'I accept the data processing terms *')}
      </FormSection>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
        <Button
          type="submit"
          variant="provider"
          size="lg"
          disabled={submit.isPending}
          className="w-full sm:w-auto"
        >
          {submit.isPending ? T.submitting : T.submit}
        </Button>
      </div>
    </form>
  );
}

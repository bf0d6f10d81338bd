import { Clock, Cpu, MemoryStick } from 'lucide-react';
import { DEPLOY_TEMPLATES, type DeployTemplateId } from '../../../../shared/deploy-templates';
import { cn } from '../../../lib/cn';

interface TemplatePickerProps {
  value: DeployTemplateId | null;
  onChange: (id: DeployTemplateId) => void;
  disabled?: boolean;
}

/** The six template cards as one radio group (arrow keys move between them). */
export function TemplatePicker({ value, onChange, disabled }: TemplatePickerProps) {
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="mb-3 text-lg font-semibold">1. Choose a template</legend>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {DEPLOY_TEMPLATES.map((t) => {
          const selected = value === t.id;
          return (
            <label
              key={t.id}
              data-testid="template-card"
              className={cn(
                'relative grid cursor-pointer content-start gap-2 rounded-xl border bg-card p-4 text-card-foreground shadow-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                selected
                  ? 'border-primary ring-1 ring-primary'
                  : 'border-border hover:border-primary/60',
              )}
            >
              <input
                type="radio"
                name="deploy-template"
                value={t.id}
                checked={selected}
                onChange={() => onChange(t.id)}
                className="sr-only"
                aria-describedby={`template-${t.id}-details`}
              />
              <span className="flex items-start justify-between gap-2">
                <span className="font-semibold">{t.name}</span>
                <span className="inline-flex items-center gap-1 whitespace-nowrap text-xs text-muted-foreground">
                  <Clock className="h-3.5 w-3.5" aria-hidden /> {t.deploySeconds}s deploy
                </span>
              </span>
              <span id={`template-${t.id}-details`} className="grid gap-2">
                <span className="text-sm text-muted-foreground">{t.description}</span>
                <span className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
                  <span className="inline-flex items-center gap-1">
                    <Cpu className="h-3.5 w-3.5" aria-hidden /> {t.cpuCores} CPU cores
                  </span>
                  <span className="inline-flex items-center gap-1">
                    <MemoryStick className="h-3.5 w-3.5" aria-hidden /> {t.ramGb} GB RAM
                  </span>
                  <span>Recommended: {t.recommendedGpu}</span>
                </span>
                <span className="sr-only">Installed software:</span>
                <ul className="flex flex-wrap gap-1.5" aria-label={`${t.name} software`}>
                  {t.software.map((s) => (
                    <li
                      key={s}
                      className="rounded-full bg-muted px-2 py-0.5 text-xs text-muted-foreground"
                    >
                      {s}
                    </li>
                  ))}
                </ul>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

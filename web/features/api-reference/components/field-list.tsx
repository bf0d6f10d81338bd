import { InlineMarkup } from '../../../components/content/markup-view';
import type { FieldView, ParameterView } from '../../../lib/openapi-view';

/** Fields of a schema (or an operation's parameters): name, type, required, description, limits. */
export function FieldList({
  label,
  fields,
}: {
  label: string;
  fields: (FieldView | ParameterView)[];
}) {
  return (
    <ul aria-label={label} className="grid rounded-lg border border-border">
      {fields.map((field) => (
        <li
          key={`${'in' in field ? field.in : ''}${field.name}`}
          className="grid min-w-0 gap-1 border-t border-border p-3 first:border-t-0 sm:grid-cols-[minmax(0,15rem)_minmax(0,1fr)] sm:gap-4"
        >
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
            <code className="font-mono text-sm font-semibold break-all">{field.name}</code>
            <span
              className={
                field.required
                  ? 'text-xs font-medium text-warning-text'
                  : 'text-xs text-muted-foreground'
              }
            >
              {field.required ? 'required' : 'optional'}
            </span>
          </div>
          <div className="grid min-w-0 gap-1 text-sm">
            <span className="font-mono text-xs break-words text-muted-foreground">
              {'in' in field ? `${field.in} · ` : ''}
              {field.type}
            </span>
            {field.description ? (
              <p>
                <InlineMarkup text={field.description} />
              </p>
            ) : null}
            {field.constraints.length > 0 ? (
              <p className="text-xs break-words text-muted-foreground">
                {field.constraints.join(' · ')}
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

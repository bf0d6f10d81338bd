import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'provider' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

// Hover applies to what is not disabled (links styled as buttons included), so a disabled one never reacts to the pointer.
const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-primary-foreground not-disabled:hover:opacity-90',
  secondary: 'bg-secondary text-secondary-foreground not-disabled:hover:opacity-90',
  outline: 'border border-border bg-transparent not-disabled:hover:bg-muted',
  ghost: 'bg-transparent not-disabled:hover:bg-muted',
  provider: 'bg-provider text-provider-foreground not-disabled:hover:opacity-90',
  danger: 'bg-danger text-white not-disabled:hover:opacity-90',
};

/**
 * A disabled button looks the same in every theme and variant: the muted surface and text
 * with a dashed border, and the not-allowed cursor (a faded brand colour alone read as
 * "enabled" in the light and pastel themes).
 */
const DISABLED =
  'disabled:cursor-not-allowed disabled:border disabled:border-dashed disabled:border-muted-foreground/40 disabled:bg-muted disabled:text-muted-foreground disabled:opacity-80 disabled:shadow-none';

const SIZES: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'h-10 w-10',
};

export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra?: string,
) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors',
    VARIANTS[variant],
    DISABLED,
    SIZES[size],
    extra,
  );
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  children: ReactNode;
}

export function Button({ variant, size, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}

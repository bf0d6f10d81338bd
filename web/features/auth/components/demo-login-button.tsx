import type { ReactNode } from 'react';
import { Button, type ButtonSize, type ButtonVariant } from '../../../components/ui/button';
import { useDemoLogin } from '../api/demo-login';

interface DemoLoginButtonProps {
  children?: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** Signs into a fresh demo account of the visitor's own; success reloads the page. */
export function DemoLoginButton({
  children = 'Demo Login',
  variant = 'outline',
  size = 'sm',
  className,
}: DemoLoginButtonProps) {
  const demo = useDemoLogin();
  return (
    <Button
      variant={variant}
      size={size}
      className={className}
      disabled={demo.isPending}
      onClick={() => demo.mutate()}
    >
      {children}
    </Button>
  );
}

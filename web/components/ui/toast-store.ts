import { useSyncExternalStore } from 'react';
import { TOAST_LIMIT } from '../../../shared/constants';
import { serverMessage } from '../../lib/api-client';

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** A link under the text, to what the toast is about (the instance just launched). */
  link?: { href: string; label: string };
}

let toasts: ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** Shows a toast; at most TOAST_LIMIT (1) at a time, the newest wins. */
export function toast(message: Omit<ToastMessage, 'id'>): number {
  const id = nextId++;
  toasts = [{ ...message, id }, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

/** A failed request's toast: its title, and the server's message, or the fallback without one. */
export function toastFailure(title: string, error: unknown, fallback: string): number {
  return toast({ title, description: serverMessage(error, fallback), variant: 'destructive' });
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastMessage[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}

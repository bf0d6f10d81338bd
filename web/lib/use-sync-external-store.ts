// What `use-sync-external-store/shim` resolves to in the build (vite.config.ts): React 19 has
// the hook itself, so the shim's fallback for React 17 need not ship with every page.
export { useSyncExternalStore } from 'react';

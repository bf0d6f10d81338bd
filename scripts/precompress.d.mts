/** Types for scripts/precompress.mjs, which vite.config.ts imports. */
import type { Plugin } from 'vite';

export declare function precompress(): Plugin;

#!/usr/bin/env node
// `rentgpu` (package.json "bin"; `npx rentgpu` from a checkout): the CLI in cli/, run from its
// TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../cli/rentgpu.ts');

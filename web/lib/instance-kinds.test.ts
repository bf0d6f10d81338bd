import { describe, expect, it } from 'vitest';
import { chosenKind, KIND_LABELS, KINDS, offeredKinds, shortDigest } from './instance-kinds';

describe('instance kinds as the pages show them', () => {
  it('are the shared kinds and their labels', () => {
    expect(KINDS).toEqual(['vm', 'container']);
    expect(KIND_LABELS).toEqual({ vm: 'Virtual machine', container: 'Container' });
  });

  it('offers what the host runs, VM first, and VMs from a host that has not said', () => {
    expect(offeredKinds(['container', 'vm'])).toEqual(['vm', 'container']);
    expect(offeredKinds(['container'])).toEqual(['container']);
    expect(offeredKinds([])).toEqual([]);
    expect(offeredKinds(undefined)).toEqual(['vm']);
  });

  it('keeps the pick while it is offered, else VM when offered, else what is', () => {
    expect(chosenKind('container', ['vm', 'container'])).toBe('container');
    expect(chosenKind('container', ['vm'])).toBe('vm');
    expect(chosenKind('vm', ['container'])).toBe('container');
    expect(chosenKind('container', [])).toBe('vm');
  });

  it('shortens a digest to its first 8 hex digits', () => {
    const digest = `sha256:${'1a2b3c4d'}${'e'.repeat(56)}`;
    expect(shortDigest(digest)).toBe('sha256:1a2b3c4d…');
    expect(shortDigest('sha256:abc')).toBe('sha256:abc');
    expect(shortDigest('odd')).toBe('odd');
  });
});

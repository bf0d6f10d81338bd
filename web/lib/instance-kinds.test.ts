import { describe, expect, it } from 'vitest';
import { INSTANCE_KIND_LABELS, INSTANCE_KINDS } from '../../shared/contracts/instance-kind';
import { chosenKind, KIND_LABELS, KINDS, offeredKinds, shortDigest } from './instance-kinds';

describe('instance kinds as the pages show them', () => {
  it('are the contract’s kinds and labels', () => {
    expect(KINDS).toEqual(INSTANCE_KINDS);
    expect(KIND_LABELS).toEqual(INSTANCE_KIND_LABELS);
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

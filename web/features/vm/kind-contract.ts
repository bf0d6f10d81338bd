import { useEffect, useState } from 'react';

type KindContract = typeof import('../../../shared/contracts/instance-kind');

let pending: Promise<KindContract> | undefined;

/**
 * The contract's instance-kind module (the OCI reference schema the server checks with, the
 * templates' container images), loaded when the form first needs it: it brings zod, which the
 * VM dashboard does not load otherwise (shared/vm-options.ts says why).
 */
export function loadKindContract(): Promise<KindContract> {
  pending ??= import('../../../shared/contracts/instance-kind').catch((error: unknown) => {
    pending = undefined; // a later use tries again
    throw error;
  });
  return pending;
}

/** The module once loaded, asked for while `wanted` (null until it has arrived). */
export function useKindContract(wanted: boolean): KindContract | null {
  const [contract, setContract] = useState<KindContract | null>(null);
  useEffect(() => {
    if (!wanted || contract) return;
    let live = true;
    loadKindContract().then(
      (loaded) => {
        if (live) setContract(loaded);
      },
      () => {}, // the placeholder stays empty; the submit checks again, else the server does
    );
    return () => {
      live = false;
    };
  }, [wanted, contract]);
  return contract;
}

/**
 * An image as the create sends it: the trimmed reference, or the schema's message (the
 * server's own words) when it is not one. Empty: none (the template's image).
 */
export async function checkImage(
  raw: string,
): Promise<{ image: string | undefined; error: string | null }> {
  if (raw.trim() === '') return { image: undefined, error: null };
  let contract: KindContract;
  try {
    contract = await loadKindContract();
  } catch {
    return { image: raw.trim(), error: null }; // not loaded: the server checks it
  }
  const checked = contract.ociReference.safeParse(raw);
  if (checked.success) return { image: checked.data, error: null };
  return { image: undefined, error: checked.error.issues[0]?.message ?? 'Not an image reference' };
}

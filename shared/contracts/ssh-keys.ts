import { z } from 'zod';
import { parseSshPublicKey } from '../rules/ssh-key';
import { hasControlCharacter } from '../rules/text';
import { TEXT_LIMITS } from './limits';
import { uuidIdParam } from './params';

export const MAX_SSH_KEYS = 20;

export const addSshKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: 'Give the key a name' })
      .max(TEXT_LIMITS.keyName, {
        message: `Name must be at most ${TEXT_LIMITS.keyName} characters`,
      })
      .refine((name) => !hasControlCharacter(name), {
        message: 'Name must not contain control characters',
      }),
    publicKey: z
      .string()
      .trim()
      .min(1, { message: 'Paste a public key' })
      .max(TEXT_LIMITS.sshPublicKey),
  })
  .superRefine((body, ctx) => {
    const parsed = parseSshPublicKey(body.publicKey);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['publicKey'], message: parsed.error });
  });
export type AddSshKeyBody = z.input<typeof addSshKeyBody>;

export const sshKeyIdParam = uuidIdParam('Not a key id');

export const sshKeyView = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  /** SHA256:… as `ssh-keygen -l` prints it. */
  fingerprint: z.string(),
  comment: z.string().nullable(),
  createdAt: z.string(),
});
export type SshKeyView = z.infer<typeof sshKeyView>;

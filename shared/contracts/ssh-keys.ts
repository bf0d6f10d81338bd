import { z } from 'zod';
import { parseSshPublicKey } from '../rules/ssh-key';

export const MAX_SSH_KEYS = 20;

export const addSshKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { message: 'Give the key a name' })
      .max(60, { message: 'Name must be at most 60 characters' }),
    publicKey: z.string().trim().min(1, { message: 'Paste a public key' }).max(16_384),
  })
  .superRefine((body, ctx) => {
    const parsed = parseSshPublicKey(body.publicKey);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['publicKey'], message: parsed.error });
  });
export type AddSshKeyBody = z.input<typeof addSshKeyBody>;

export const sshKeyIdParam = z.object({ id: z.string().uuid({ message: 'Not a key id' }) });

export interface SshKeyView {
  id: string;
  name: string;
  type: string;
  /** SHA256:… as `ssh-keygen -l` prints it. */
  fingerprint: string;
  comment: string | null;
  createdAt: string;
}

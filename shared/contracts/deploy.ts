import { z } from 'zod';
import { DEPLOY_STORAGE_GB, DEPLOY_TEMPLATE_IDS } from '../deploy-templates';
import { INSTANCE_STATES } from '../rules/instance-lifecycle';
import { INSTANCE_KINDS, instanceKind } from './instance-kind';
import { launchWarnings } from './launch-warnings';

/**
 * Instant Deploy (docs/architecture.md, Instant Deploy): the GPU list from real offerings,
 * the deploy request and its result, and a deployment's live status.
 */

/** One GPU type on offer: its cheapest rentable rate, or 'Sold Out' (is_available false). */
export const deployGpuView = z.object({
  gpu_type: z.string(),
  memory_gb: z.number().int(),
  /** Dollars with 2 decimals: the cheapest rentable listing's rate (or the cheapest listed). */
  hourly_rate: z.string(),
  is_available: z.boolean(),
  /**
   * Seconds from Deploy Instantly to running on the listing a deploy would pick: the demo
   * host's configured delay, or measured on that host's recent instances; null when unknown.
   */
  ready_seconds: z.number().int().nullable(),
  ready_basis: z.enum(['demo_host', 'measured']).nullable(),
});
export type DeployGpuView = z.infer<typeof deployGpuView>;

export const deployGpuList = z.object({ gpus: z.array(deployGpuView) });
export type DeployGpuList = z.infer<typeof deployGpuList>;

const storageMessage = `Storage must be a whole number of GB from ${DEPLOY_STORAGE_GB.min} to ${DEPLOY_STORAGE_GB.max}`;

export const deployRequestBody = z.object({
  gpu_type: z
    .string({ message: 'Choose a GPU type' })
    .trim()
    .min(1, { message: 'Choose a GPU type' })
    .max(100, { message: 'Choose a GPU type' }),
  template: z.enum(DEPLOY_TEMPLATE_IDS, { message: 'Choose one of the templates' }),
  /** A VM (the template's setup runs by cloud-init) or a container (the template's image). */
  kind: instanceKind.default('vm'),
  storage_gb: z
    .number({ message: storageMessage })
    .int({ message: storageMessage })
    .min(DEPLOY_STORAGE_GB.min, { message: storageMessage })
    .max(DEPLOY_STORAGE_GB.max, { message: storageMessage }),
});
export type DeployRequestBody = z.infer<typeof deployRequestBody>;

export const deploymentView = z.object({
  /** The instance's id. */
  deployment_id: z.number().int(),
  /** The instance's state (shared/rules/instance-lifecycle.ts): provisioning, then running. */
  status: z.enum(INSTANCE_STATES),
  gpu_type: z.string(),
  template: z.enum(DEPLOY_TEMPLATE_IDS),
  kind: z.enum(INSTANCE_KINDS),
  storage_gb: z.number().int(),
  cpu_cores: z.number().int(),
  ram_gb: z.number(),
  hourly_rate: z.string(),
  location: z.string(),
  is_demo_host: z.boolean(),
  created_at: z.string(),
  /** When it should be running (ISO time); the time it became ready once it has. */
  estimated_ready_time: z.string(),
  ready_at: z.string().nullable(),
  /** The host's error when it failed. */
  error: z.string().nullable(),
  /** While provisioning or starting: its host's step ("downloading image (42%)"), or null. */
  provisioning_step: z.string().nullable(),
});

/**
 * How to reach it. Every address is null until the instance is running (then `pending` says
 * so); Jupyter listens inside the VM on 127.0.0.1:8888 and is reached through the SSH tunnel.
 */
export const accessInfoView = z.object({
  ssh_command: z.string().nullable(),
  web_terminal: z.string().nullable(),
  jupyter: z.string().nullable(),
  jupyter_tunnel: z.string().nullable(),
  file_manager: z.string().nullable(),
  pending: z.string().nullable(),
  /** The guest's SSH host key fingerprint (`SHA256:…`) beside the SSH command; null until known. */
  ssh_host_key_fingerprint: z.string().nullable(),
});

export const deployResultView = z.object({
  success: z.literal(true),
  message: z.string(),
  deployment: deploymentView,
  access_info: accessInfoView,
  warnings: launchWarnings,
});
export type DeployResultView = z.infer<typeof deployResultView>;

export const deploymentStatusView = z.object({
  deployment: deploymentView,
  access_info: accessInfoView,
});
export type DeploymentStatusView = z.infer<typeof deploymentStatusView>;

/**
 * The one lifecycle of every instance, however it was obtained (marketplace rental, VM,
 * instant deploy, public API). The server refuses what this rule refuses and the web
 * shows the buttons it allows. See docs/decisions/007.
 *
 *   provisioning ──▶ running ──▶ stopping ──▶ stopped ──▶ starting ──▶ running
 *        any live state ──▶ terminating ──▶ terminated
 *        any live state ──▶ failed
 */
export const INSTANCE_STATES = [
  'provisioning',
  'running',
  'stopping',
  'stopped',
  'starting',
  'terminating',
  'terminated',
  'failed',
] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

export const INSTANCE_ACTIONS = ['stop', 'start', 'terminate'] as const;
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number];

/** States in which the instance exists and may still be acted on. */
export const LIVE_STATES: readonly InstanceState[] = [
  'provisioning',
  'running',
  'stopping',
  'stopped',
  'starting',
];

/** States that hold one unit of the listing (a GPU taken on the host). */
export const UNIT_HOLDING_STATES: readonly InstanceState[] = [
  'provisioning',
  'starting',
  'running',
];

/**
 * States in which an instance has its GPU on the host (docs/decisions/020): a stopping or
 * terminating one still holds it until its host says it let go.
 */
export const GPU_HOLDING_STATES: readonly InstanceState[] = [
  ...UNIT_HOLDING_STATES,
  'stopping',
  'terminating',
];

/**
 * States in which an instance whose host stays unreachable fails (docs/decisions/011); a
 * provisioning one has its own deadline, a stopped one waits for its host.
 */
export const FAILS_WHEN_UNREACHABLE: readonly InstanceState[] = ['running', 'starting', 'stopping'];

/** States a host must still know of: every live state, and one it is letting go of. */
export const ON_HOST_STATES: readonly InstanceState[] = [...LIVE_STATES, 'terminating'];

/** States on the way to running, whose progress a host reports. */
export const ON_THE_WAY_STATES: readonly InstanceState[] = ['provisioning', 'starting'];

/** States a host is moving the instance through: it will change without anyone acting. */
export const TRANSITIONAL_STATES: readonly InstanceState[] = [
  'provisioning',
  'starting',
  'stopping',
  'terminating',
];

export function isTransitional(state: InstanceState): boolean {
  return TRANSITIONAL_STATES.includes(state);
}

/** States after which nothing more happens; the instance has ended. */
export const ENDED_STATES: readonly InstanceState[] = ['terminating', 'terminated', 'failed'];

const ALLOWED: Record<InstanceState, readonly InstanceAction[]> = {
  provisioning: ['terminate'],
  running: ['stop', 'terminate'],
  stopping: ['terminate'],
  stopped: ['start', 'terminate'],
  starting: ['stop', 'terminate'],
  terminating: [],
  terminated: [],
  failed: [],
};

/** The actions a user may take on an instance in this state. */
export function allowedActions(state: InstanceState): readonly InstanceAction[] {
  return ALLOWED[state];
}

export function canAct(state: InstanceState, action: InstanceAction): boolean {
  return ALLOWED[state].includes(action);
}

/**
 * States in which asking for `action` again changes nothing: the instance is already in or
 * past what it asks for. A stop or a terminate asked there is answered with the instance as
 * it is (200), as REST clients and clouds expect of a retried call (docs/decisions/018);
 * only an action that cannot happen (start a terminated instance) is refused.
 */
const ALREADY_DONE: Record<'stop' | 'terminate', readonly InstanceState[]> = {
  stop: ['stopping', 'stopped', 'terminating', 'terminated', 'failed'],
  terminate: ['terminating', 'terminated', 'failed'],
};

/** Whether `action` has already happened to an instance in `state` (or been overtaken). */
export function alreadyDone(state: InstanceState, action: InstanceAction): boolean {
  return action === 'start' ? false : ALREADY_DONE[action].includes(state);
}

export function isLive(state: InstanceState): boolean {
  return LIVE_STATES.includes(state);
}

export function holdsUnit(state: InstanceState): boolean {
  return UNIT_HOLDING_STATES.includes(state);
}

/**
 * Where an action leads. `placed` says whether a host runs the instance: a host must
 * confirm a stop or a termination (stopping, terminating); an instance on no host has
 * nothing to converge and changes at once.
 */
export function stateAfter(action: InstanceAction, placed: boolean): InstanceState {
  if (action === 'stop') return placed ? 'stopping' : 'stopped';
  if (action === 'terminate') return placed ? 'terminating' : 'terminated';
  return 'starting';
}

/** What a host may report, from which states (a report of anything else is ignored). */
const REPORTABLE: Record<
  'running' | 'stopped' | 'terminated' | 'failed',
  readonly InstanceState[]
> = {
  running: ['provisioning', 'starting'],
  stopped: ['stopping'],
  terminated: ['terminating'],
  failed: ['provisioning', 'running', 'stopping', 'stopped', 'starting', 'terminating'],
};
export type ReportedState = keyof typeof REPORTABLE;
export const REPORTED_STATES = Object.keys(REPORTABLE) as ReportedState[];

/** Whether a host's report of `reported` moves an instance that is in `state`. */
export function acceptsReport(state: InstanceState, reported: ReportedState): boolean {
  return REPORTABLE[reported].includes(state);
}

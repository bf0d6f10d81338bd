/** One JSON line per event on stdout (journald and the tests read it). */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

export const jsonLog: Log = (event, fields = {}) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
};

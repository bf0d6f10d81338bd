/** Types for scripts/free-port.mjs, which plain-node scripts import as well as TypeScript. */
export declare function freePort(): Promise<number>;

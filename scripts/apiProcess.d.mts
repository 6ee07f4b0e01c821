/** scripts/apiProcess.mjs, for the TypeScript that imports it. */
export declare const API_NODE_FLAGS: readonly string[];

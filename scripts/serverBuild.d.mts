/** scripts/serverBuild.mjs, for the TypeScript that imports it. */
export declare const SERVER_BUILD_DIR: string;
export declare function buildServer(outDir?: string): string;

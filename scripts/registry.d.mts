/** scripts/registry.mjs, for the TypeScript that imports it. */
export declare function registries(root?: string): Array<{ path: string; text: string }>;
export declare function writeRegistries(root?: string): string[];

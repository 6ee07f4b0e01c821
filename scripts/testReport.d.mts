/** scripts/testReport.mjs, for the TypeScript that imports it. */
export declare const RETRIED_MARK: string;
export declare function failureReport(lines: string[]): string[];
export declare function retriedTests(lines: string[]): string[];

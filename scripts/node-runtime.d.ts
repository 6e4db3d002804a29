export declare const SUPPORTED: string;
export declare function runtimeProblem(version?: string, execPath?: string, range?: string): string | null;
export declare function requireSupportedRuntime(): void;
export declare function satisfiesCaret(version: string, range: string): boolean;

export declare function previousReleaseSha(): string;
export declare function ensurePreviousRelease(options?: { log?: (line: string) => void }): string;
export declare const RELEASES: string;

export declare const APPS: readonly string[];
export declare const UPGRADE_ORDER: readonly string[];
export declare function distMain(app: string, root?: string): string;

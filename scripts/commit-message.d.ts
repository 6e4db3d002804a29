export declare const SUBJECT_LIMIT: number;
export declare function commitMessageProblems(message: string): string[];

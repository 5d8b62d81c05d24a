export declare function builtFromCurrentSources(root?: string): Promise<boolean>;
export declare function markBuilt(startedAt: number, root?: string): Promise<void>;

export declare const targets: Record<string, () => Promise<unknown>>;
export declare function buildTargets(names?: string[]): Promise<void>;
export declare const MCP_CHUNKS: string;
export declare const MCP_WHOLE: string;

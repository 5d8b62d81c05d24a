export declare const LTS_NODES: Record<'node22' | 'node24', string>;
export declare const ltsNodeSupported: boolean;
export declare function ltsNodePath(name: 'node22' | 'node24'): string;
export declare function ensureLtsNode(name: 'node22' | 'node24'): string;
export declare function ensureLtsNodes(names: Array<'node22' | 'node24'>): Promise<void>;

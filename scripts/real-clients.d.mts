type RealClient = 'gemini' | 'codex' | 'claude';
export declare const REAL_CLIENTS: Record<RealClient, { spec: string; bin: string }>;
export declare function realClientPath(name: RealClient): string;
export declare function realClientsFailure(): Promise<string | undefined>;
export declare function ensureRealClients(): Promise<void>;

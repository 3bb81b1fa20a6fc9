// Types of scripts/postgres.mjs, for the tests that start a server through it.
export declare const POSTGRES_BIN: string;
export declare function postgresInstalled(): boolean;
export declare function startPostgres(): Promise<{ url: string; dir: string; stop(): void }>;
export declare function stopPostgres(dir: string): void;

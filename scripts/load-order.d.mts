// Types of scripts/load-order.mjs, for its test.
/** Whether the TypeScript module `file` (its text, read from the file unless given) may read an import while it loads. */
export declare function readsImportsOnLoad(file: string, text?: string): boolean;

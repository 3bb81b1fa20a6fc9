export declare function mulberry32(seed: number): () => number;
export declare function xorshift32(seed: number): () => number;

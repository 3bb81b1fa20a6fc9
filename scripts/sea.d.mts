// Types of scripts/sea.mjs, for its tests.
export interface Target {
  /** The npm registry package carrying the platform's Node binary. */
  pkg: string;
  /** The binary's path inside that package. */
  binary: string;
  /** The executable's file name in release/. */
  file: string;
}
export declare const TARGETS: Readonly<Record<'linux-x64' | 'linux-arm64' | 'darwin-arm64' | 'win-x64', Target>>;
export declare function hostTarget(): keyof typeof TARGETS | undefined;
export declare function payload(root?: string): { version: string; files: Map<string, Buffer> };
export declare function buildId(carried: { version: string; files: Map<string, Buffer> }): string;
export declare function buildExecutable(options: { builder: string; executable?: string; output: string; root?: string }): {
  output: string;
  node: string;
  build: string;
};

// Types of scripts/release.mjs, for its test.
export declare const FORMATS: Readonly<Record<'linux-x64' | 'linux-arm64' | 'darwin-arm64' | 'win-x64', string>>;
/** 'ELF x86-64', 'ELF aarch64', 'Mach-O arm64', 'PE x86-64', or undefined, from an executable's first bytes. */
export declare function formatOf(bytes: Buffer): string | undefined;
/** `sha256sum` lines of every file in dir but SHA256SUMS. */
export declare function sha256sums(dir: string): string;

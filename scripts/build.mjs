// Bundles the CLI (dist/main.js) and the library entry (dist/index.js) with esbuild: lazily loaded chunks per command,
// dependencies inlined (their licences gathered into dist/THIRD_PARTY_NOTICES), source maps beside the code.
// dist/root-help.txt is the root help the built CLI prints into a pipe, which bin/rsapi prints without loading it.
// `--types` also writes the library's declarations (dist/types); `--clean` starts from an empty dist/; `--outdir=DIR`
// builds into DIR instead of dist/ (test/e2e/tarball.test.ts packs a single build from a staging directory).
import { build } from 'esbuild';
import { readsImportsOnLoad } from './load-order.mjs';
import { lazyHttp2 } from './lazy-http2.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = new Set(process.argv.slice(2));
const outdirArg = [...args].find((arg) => arg.startsWith('--outdir='));
const dist = outdirArg ? resolve(outdirArg.slice('--outdir='.length)) : join(root, 'dist');
// Built beside dist/ and moved in at the end, so a binary running meanwhile never sees half a build.
const outdir = `${dist}.building-${process.pid}`;
rmSync(outdir, { recursive: true, force: true });

/**
 * commander requires node:child_process when it loads, for executable subcommands rsapi never has; that pulls in
 * net, dgram and more before --help can answer (~7 ms on Node 24). Its require gets a stand-in that loads the real
 * module on first use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'rsapi-lazy' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'rsapi-lazy' }, () => ({
      contents: "let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

/**
 * esbuild puts a module in a chunk of its own for each distinct set of entry points (each dynamic import() is one) that
 * reach it: program.ts's own imports fell into some twenty chunks of a few hundred bytes, each a file to resolve, read
 * and link at every start, and the verbs' shared modules into as many more. Yet a command's modules are always loaded
 * after program.ts (main.ts loads it, and it loads them), and most after runtime/handler.ts. So a module that is
 * loaded only after such a hub imports the hub as well (a side-effect import, appended: lines keep their numbers for
 * the source maps): it loads nothing more, but every entry point that reaches one of the hub's modules now reaches all
 * of them, and they share one chunk. The library's modules (dist/index.js's graph) are left alone: the library must
 * not load the CLI.
 */
const HUBS = ['src/cli/program.ts', 'src/cli/runtime/handler.ts'];
const HANDLER = 'src/cli/runtime/handler.ts';
/** `joining`: the modules the handler imports as well (see joiningHandler). */
function afterHubs(hubsOf, joining = []) {
  return {
    name: 'after-hubs',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, (args) => {
        const path = relative(root, args.path);
        const imports = [...(hubsOf.get(path) ?? []), ...(path === HANDLER ? joining : [])];
        if (imports.length === 0) return undefined;
        return {
          contents: `${readFileSync(args.path, 'utf8')}\n${imports.map((module) => `import ${JSON.stringify(join(root, module))};`).join('\n')}\n`,
          loader: 'ts',
        };
      });
    },
  };
}

/**
 * A chunk file costs about 1.3 ms at start-up (resolve, read, the compile cache's own file, link) whatever its size,
 * and the modules loaded after the handler still fell into a dozen chunks of a few hundred bytes each (a list loaded
 * 37 files). So the modules of each such small chunk (under SMALL_CHUNK) are imported by the handler too, and join its
 * chunk, with what they import that loads after the handler: they load with every command, and a list loads 19 files (pastFacades). 3,000, not 2,500: page-reader.ts (2.6 KB) stays in.
 * They import the handler back (the hub import above): in a chunk holding that cycle esbuild may run a module's
 * top-level code before its imports' have run. So a small chunk joins only if no module it brings reads an import
 * while it loads (readsImportsOnLoad): then the order they run in cannot matter.
 */
const SMALL_CHUNK = 3_000;
async function joiningHandler(hubsOf) {
  const { metafile } = await build({ ...options, write: false, plugins: [lazyChildProcess, lazyHttp2, afterHubs(hubsOf)], logLevel: 'silent' });
  const afterHandler = (module) => hubsOf.get(module)?.includes(HANDLER) ?? false;
  // A verb's own modules stay with it: a verb loads no other verb's code (test/e2e/startup.test.ts).
  const joinable = (module) => afterHandler(module) && !module.startsWith('src/cli/commands/');
  const brought = (module, into = new Set()) => {
    if (into.has(module) || !afterHandler(module)) return into;
    into.add(module);
    for (const edge of metafile.inputs[module].imports) if (edge.kind !== 'dynamic-import' && !edge.external) brought(edge.path, into);
    return into;
  };
  const joining = [];
  for (const [path, output] of Object.entries(metafile.outputs)) {
    const modules = Object.keys(output.inputs);
    if (!path.endsWith('.js') || output.entryPoint || output.bytes > SMALL_CHUNK || !modules.every(joinable)) continue;
    const all = [...new Set(modules.flatMap((module) => [...brought(module)]))];
    if (all.every(joinable) && !all.some((module) => readsImportsOnLoad(join(root, module)))) joining.push(...modules);
  }
  return joining;
}

/**
 * For each module under src/ (its path from the root), the hubs it may import without loading anything more: those
 * every entry point reaching it is loaded after. An entry point is loaded after a hub when it imports the hub
 * statically, or when every entry point that imports it dynamically is loaded after the hub.
 */
async function hubImports() {
  const { metafile } = await build({ ...options, write: false, outdir, plugins: [lazyChildProcess, lazyHttp2], logLevel: 'silent' });
  const { inputs } = metafile;
  const closure = (start) => {
    const reached = new Set();
    const visit = (path) => {
      if (reached.has(path) || !inputs[path]) return;
      reached.add(path);
      for (const edge of inputs[path].imports) if (edge.kind !== 'dynamic-import' && !edge.external) visit(edge.path);
    };
    visit(start);
    return reached;
  };
  // Every entry point, the modules it reaches, and the entry points that import it dynamically.
  const entries = new Map(Object.values(options.entryPoints).map((path) => [path, { reached: closure(path), importers: new Set() }]));
  for (const input of Object.values(inputs)) {
    for (const edge of input.imports)
      if (edge.kind === 'dynamic-import' && inputs[edge.path] && !entries.has(edge.path))
        entries.set(edge.path, { reached: closure(edge.path), importers: new Set() });
  }
  for (const [from, entry] of entries) {
    for (const path of entry.reached)
      for (const edge of inputs[path].imports) if (edge.kind === 'dynamic-import' && entries.has(edge.path)) entries.get(edge.path).importers.add(from);
  }
  const library = entries.get(options.entryPoints.index).reached;
  const reachedBy = new Map();
  for (const [path, entry] of entries) for (const module of entry.reached) reachedBy.set(module, [...(reachedBy.get(module) ?? []), path]);
  const hubsOf = new Map();
  for (const hub of HUBS) {
    const after = new Set([...entries].filter(([, entry]) => entry.reached.has(hub)).map(([path]) => path));
    for (let grew = true; grew; ) {
      grew = false;
      for (const [path, entry] of entries) {
        if (after.has(path) || entry.importers.size === 0 || ![...entry.importers].every((from) => after.has(from))) continue;
        after.add(path);
        grew = true;
      }
    }
    const own = closure(hub);
    for (const [module, by] of reachedBy) {
      if (!module.startsWith('src/') || own.has(module) || library.has(module) || !by.every((path) => after.has(path))) continue;
      hubsOf.set(module, [...(hubsOf.get(module) ?? []), hub]);
    }
  }
  return hubsOf;
}

const REQUIRE_BANNER = "import{createRequire as __rsapiCreateRequire}from'node:module';const require=__rsapiCreateRequire(import.meta.url);";

/**
 * esbuild's banner goes into every file, yet only the chunk of its helpers (`__require`, which every bundled
 * CommonJS module calls) and a file naming `require` itself use it: elsewhere it is a createRequire call at every
 * start for nothing (a list loads 19 files). Emptied there; its line stays, so the source maps still hold.
 */
function withoutIdleRequire(dir) {
  for (const name of readdirSync(dir, { recursive: true })) {
    if (!name.endsWith('.js')) continue;
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    if (!text.startsWith(REQUIRE_BANNER)) continue;
    const rest = text.slice(REQUIRE_BANNER.length);
    // Conservative: any `require` that is not `__require` nor a property keeps it (a string naming it too).
    if (!/(?<![\w$.])require(?![\w$])/.test(rest)) writeFileSync(path, rest);
  }
}

/**
 * A verb's module imported by another entry too (the hubs' imports, the manual's generator) is put in a shared chunk,
 * and its `import()` gets a facade: a file that only re-exports that chunk's names (`program-*.js`, `list-*.js`). Each
 * is one file more to resolve, read and link at every start. An `import()` of a facade that re-exports the names
 * unchanged is pointed at the chunk itself: it exports them, and the facade's other imports are the chunk's own
 * (esbuild lists the whole graph there), so nothing more or less is loaded, in the same order.
 */
function pastFacades(dir) {
  const facade = /^\n?import\{([^}]*)\}from"(\.\/chunk-[A-Z0-9]+\.js)";(?:import"\.\/chunk-[A-Z0-9]+\.js";)*export\{([^}]*)\};\n\/\/# sourceMappingURL=\S+\n?$/;
  const chunkOf = (path) => {
    const match = existsSync(path) ? facade.exec(readFileSync(path, 'utf8')) : null;
    return match && match[1] === match[3] && !match[1].includes(' as ') ? join(dirname(path), match[2]) : undefined;
  };
  const files = ['main.js', ...readdirSync(join(dir, 'chunks')).map((name) => join('chunks', name))].filter((name) => name.endsWith('.js'));
  for (const name of files) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    const pointed = text.replace(/import\("(\.\.?\/[^"]+\.js)"\)/g, (call, target) => {
      const chunk = chunkOf(join(dirname(path), target));
      return chunk ? `import("./${relative(dirname(path), chunk)}")` : call;
    });
    if (pointed !== text) writeFileSync(path, pointed);
  }
}

const options = {
  entryPoints: { main: 'src/cli/main.ts', index: 'src/api/index.ts' },
  absWorkingDir: root,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minifyWhitespace: true,
  minifySyntax: true,
  // Licences are collected whole into THIRD_PARTY_NOTICES below (most packages keep theirs in a file, not a comment).
  legalComments: 'none',
  // Used for stack traces only under RSAPI_DEBUG=1 / --verbose (main.ts turns them on then): start-up does not pay.
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __RSAPI_VERSION__: JSON.stringify(pkg.version) },
  // Some CommonJS dependencies (undici, conf's helpers) call require() on Node built-ins (kept only where needed: withoutIdleRequire).
  banner: { js: REQUIRE_BANNER },
  // pg's optional native binding (a C addon, never installed): pg loads it only when asked to, which rsapi never does.
  external: ['pg-native'],
  logLevel: 'warning',
};
const hubsOf = await hubImports();
const joining = await joiningHandler(hubsOf);
const result = await build({ ...options, plugins: [lazyChildProcess, lazyHttp2, afterHubs(hubsOf, joining)] });
withoutIdleRequire(outdir);
pastFacades(outdir);

writeFileSync(join(outdir, 'THIRD_PARTY_NOTICES'), thirdPartyNotices(Object.keys(result.metafile.inputs)));
writeFileSync(join(outdir, 'root-help.txt'), rootHelp(join(outdir, 'main.js')));
if (args.has('--types')) writeDeclarations(join(outdir, 'types'));
swapIn(outdir, dist, { clean: args.has('--clean') });

/**
 * Moves the new build into dist/ without a moment where a running binary cannot find what it imports: chunks are
 * content-hashed, so new ones are added beside the old (a binary started before keeps importing its own), then each
 * entry file is replaced by one rename. Chunks no build has produced for an hour are removed.
 */
function swapIn(from, to, { clean }) {
  if (clean) rmSync(to, { recursive: true, force: true });
  mkdirSync(join(to, 'chunks'), { recursive: true });
  const fresh = new Set(readdirSync(join(from, 'chunks')));
  for (const name of fresh) renameSync(join(from, 'chunks', name), join(to, 'chunks', name));
  rmSync(join(from, 'chunks'), { recursive: true });
  if (existsSync(join(from, 'types'))) {
    rmSync(join(to, 'types'), { recursive: true, force: true });
    renameSync(join(from, 'types'), join(to, 'types'));
  }
  for (const name of readdirSync(from)) renameSync(join(from, name), join(to, name));
  rmSync(from, { recursive: true });
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of readdirSync(join(to, 'chunks'))) {
    const path = join(to, 'chunks', name);
    if (!fresh.has(name) && statSync(path).mtimeMs < hourAgo) rmSync(path);
  }
}

/**
 * `rsapi --help` as the CLI just built prints it into a pipe (commander wraps at 80 columns there), in an environment
 * without the shell's RSAPI_* and colour settings (none of which changes it: test/e2e/static-help.test.ts).
 */
function rootHelp(main) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(RSAPI_|NODE_OPTIONS$|NO_COLOR$|FORCE_COLOR$|CLICOLOR_FORCE$)/i.test(key)));
  const result = spawnSync(process.execPath, [main, '--help'], { env, encoding: 'utf8' });
  if (result.status !== 0 || result.stderr !== '' || !result.stdout.startsWith('Usage: rsapi')) {
    throw new Error(`the built CLI's --help exited ${result.status}: ${result.stderr}`);
  }
  return result.stdout;
}

/** The name, version, licence and licence text of every package whose code went into the bundle. */
function thirdPartyNotices(inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const at = input.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const parts = input.slice(at + 'node_modules/'.length).split('/');
    const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    const dir = join(root, input.slice(0, at), 'node_modules', name);
    if (!packages.has(dir)) packages.set(dir, name);
  }
  const sections = new Map();
  for (const [dir, name] of packages) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
    const text = licenceFile ? readFileSync(join(dir, licenceFile), 'utf8').trim() : `Licence: ${manifest.license ?? 'see the package'}`;
    sections.set(`${name}@${manifest.version}`, `${name}@${manifest.version} (${manifest.license ?? 'unknown licence'})\n\n${text}\n`);
  }
  return `rsapi bundles the following packages; their licences follow.\n\n${[...sections.keys()]
    .sort()
    .map((key) => sections.get(key))
    .join(`\n${'-'.repeat(72)}\n\n`)}`;
}

/** The library's type declarations (tsc, declarations only), for `import { ApiClient } from 'rsapi'`. */
function writeDeclarations(outDir) {
  // TypeScript 7 exports no path to its bin: found beside its package.json.
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.lib.json'), '--outDir', outDir], { stdio: 'inherit' });
}

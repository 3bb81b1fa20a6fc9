// Whether a module may read what it imports while it loads: scripts/build.mjs merges into the handler's chunk (an
// import cycle, in which esbuild may run a module's top-level code before its imports') only modules that do not.
import { readFileSync } from 'node:fs';
import { parseSync } from 'oxc-parser';

/**
 * Whether a module's top-level code may read a value it imports while the module loads. Code in a function runs
 * later, unless the module calls it while loading: so a call or `new` at the top level counts too, unless it is of a
 * global (`Object.freeze`, `new Set`, `Array.from`), and then the functions handed to it count as running now.
 * Conservative: any mention of an import counts, and so does a call of anything the module declares.
 */
export function readsImportsOnLoad(file, text = readFileSync(file, 'utf8')) {
  const { program, errors } = parseSync(file, text, { lang: 'ts', sourceType: 'module' });
  if (errors.length > 0) return true;
  const imported = new Set();
  const declared = new Set();
  for (const top of program.body) {
    if (top.type === 'ImportDeclaration') {
      if (top.importKind !== 'type') for (const specifier of top.specifiers) if (specifier.importKind !== 'type') imported.add(specifier.local.name);
      continue;
    }
    const declaration = top.type === 'ExportNamedDeclaration' || top.type === 'ExportDefaultDeclaration' ? top.declaration : top;
    if (declaration?.id?.type === 'Identifier') declared.add(declaration.id.name);
    if (declaration?.type === 'VariableDeclaration') for (const { id } of declaration.declarations) for (const name of boundNames(id)) declared.add(name);
  }
  /** Whether a callee is a global or hangs from one (`Object.freeze`, `Set`), not something imported or declared here. */
  const isGlobal = (callee) => {
    let node = callee;
    while (node.type === 'MemberExpression' && !node.computed) node = node.object;
    return node.type === 'Identifier' && !imported.has(node.name) && !declared.has(node.name);
  };
  const TYPE_KEYS = new Set(['typeAnnotation', 'typeArguments', 'typeParameters', 'returnType', 'superTypeArguments', 'implements']);
  const reads = (node, runsNow = false) => {
    if (Array.isArray(node)) return node.some((item) => reads(item, runsNow));
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') return false;
    switch (node.type) {
      case 'ImportDeclaration':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSDeclareFunction':
        return false;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return runsNow && (reads(node.params) || reads(node.body));
      case 'CallExpression':
      case 'NewExpression':
        return !isGlobal(node.callee) || reads(node.arguments, true);
      case 'TaggedTemplateExpression':
        return true;
      case 'Identifier':
        return imported.has(node.name);
      case 'MethodDefinition':
        return node.computed && reads(node.key);
      case 'PropertyDefinition':
        return (node.computed && reads(node.key)) || (node.static && reads(node.value));
      case 'MemberExpression':
        return reads(node.object) || (node.computed && reads(node.property));
      case 'Property':
        return (node.computed && reads(node.key)) || reads(node.value, runsNow);
    }
    return Object.entries(node).some(([key, value]) => !TYPE_KEYS.has(key) && reads(value, runsNow));
  };
  return program.body.some((top) => reads(top));
}

/** The names a declaration's left side binds (`a`, `{ a, b: c }`, `[a, ...d]`). */
function boundNames(pattern) {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) => boundNames(property.type === 'RestElement' ? property.argument : property.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap(boundNames);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    case 'RestElement':
      return boundNames(pattern.argument);
    default:
      return [];
  }
}

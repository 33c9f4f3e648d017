// Test and bench support (not part of the bin): every request of every scenario file rendered under
// every provider, its provider-rule findings, and a type-check of every body against the request
// type of the provider's official SDK (generated TypeScript, checked by the compiler API in memory).
//
// The SDK type of each provider is its descriptor's `sdk` (src/core/providers/*.ts): the module, the
// request type, and how a body's parts make a request of that type. A body is checked as a
// composition of distinct elements (each tool, message, input item declared once with `satisfies`
// its element type), so the generated program stays small while every body is checked whole.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { parseScenario } from '../core/scenario/parse';
import { runScenario } from '../core/turn/run';
import { checkRequest } from '../core/providers/request-rules';
import type { ProviderDiagnostic } from '../core/providers/rules';
import type { SdkType } from '../core/providers/descriptor';
import { PROVIDER_IDS, providerOf } from '../core/providers/registry';
import type { ProviderId } from '../core/providers/registry';
import type { ToolDefinition } from '../core/catalogue/types';
import { toJson } from '../core/json/serde';
import { workspaceHost } from './workspace';

export interface BodyCase {
  readonly file: string;
  readonly provider: ProviderId;
  readonly request: number;
  readonly step: number;
  readonly cycle: number;
  readonly body: unknown;
  /** Tool definitions in the array, by name (to explain an expected exception). */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly findings: readonly ProviderDiagnostic[];
}

/** `*.toml` files of each folder, sorted, as paths. */
export function scenarioFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith('.toml'))
      .sort()
      .map((f) => join(d, f)),
  );
}

/** Every request of every file under every provider (files that do not parse or load are skipped). */
export function renderAll(files: readonly string[], providers: readonly ProviderId[] = PROVIDER_IDS): BodyCase[] {
  const out: BodyCase[] = [];
  for (const file of files) {
    const dir = dirname(resolve(file));
    const host = { readFile: (p: string) => readFileSync(resolve(dir, p), 'utf8'), ...workspaceHost(dir) };
    const parsed = parseScenario(readFileSync(file, 'utf8'), host);
    if (!parsed.ok) continue;
    const ws = parsed.scenario.workspace ? host.loadWorkspace?.(parsed.scenario) : undefined;
    if (ws && 'error' in ws) continue;
    for (const provider of providers) {
      const scenario = { ...parsed.scenario, policy: { ...parsed.scenario.policy, provider } };
      const t = runScenario({ scenario, ...(ws ? { workspaceLayers: ws.layers, workspaceDiagnostics: ws.diagnostics } : {}) });
      for (const r of t.requests) {
        const defs = r.array.map((n) => r.definitions.get(n)).filter((d): d is ToolDefinition => d !== undefined);
        out.push({
          file,
          provider,
          request: r.id,
          step: r.step,
          cycle: r.cycle,
          body: r.rendered().body,
          tools: new Map(defs.map((d) => [d.name, d])),
          findings: checkRequest({ provider, tools: defs, toolChoice: r.toolChoice, messages: r.messages }),
        });
      }
    }
  }
  return out;
}

/** The import lines of a provider's SDK check: its request type as `P`, and what its element types use. */
function imports(sdk: SdkType): string {
  const types = [`${sdk.type} as P`, ...(sdk.alsoTypes ?? [])].join(', ');
  const values = sdk.values && sdk.values.length > 0 ? `\nimport { ${sdk.values.join(', ')} } from '${sdk.module}';` : '';
  return `import type { ${types} } from '${sdk.module}';${values}`;
}

// Type packages the SDKs pull in for their transports (node globals, fetch, tracing). Request-body
// types do not use them; leaving them out keeps the program to the SDKs' own declarations (a
// third of the files, and most of the time).
const RUNTIME_ONLY = /\/node_modules\/(@types\/node|@types\/node-fetch|undici-types|@opentelemetry|form-data|zod\/v3\/locales)\//;

export interface TypeFailure {
  readonly message: string;
  /** The element (e.g. a tool) whose declaration failed, or the body itself. */
  readonly element: { readonly key: string; readonly json: string } | undefined;
}

export interface TypeResult {
  /** Per case (same order): the type errors of its body and of every element it holds. */
  readonly failures: readonly (readonly TypeFailure[])[];
  readonly declarations: number;
  readonly millis: number;
}

interface Generated {
  readonly text: string;
  /** Line number (0-based) → the element declared on it, or the cases whose body is on it. */
  readonly lines: Map<number, { element?: { key: string; json: string }; cases: number[] }>;
}

function generate(provider: ProviderId, cases: readonly { index: number; body: unknown }[]): Generated {
  const shape = providerOf(provider).sdk;
  const lines: string[] = [imports(shape)];
  const at = new Map<number, { element?: { key: string; json: string }; cases: number[] }>();
  const declared = new Map<string, { name: string; line: number }>();
  for (const { index, body } of cases) {
    const b = body as Record<string, unknown>;
    const parts: Record<string, string> = {};
    for (const key of Object.keys(b)) {
      const value = b[key];
      const elementType = shape.elements[key];
      if (value === undefined) continue;
      if (!elementType || !Array.isArray(value)) {
        parts[key] = shape.literal ? shape.literal(key, toJson(value)) : toJson(value);
        continue;
      }
      const names = value.map((item: unknown) => {
        const json = toJson(item);
        const id = `${key}\u0000${json}`;
        let d = declared.get(id);
        if (!d) {
          d = { name: `e${declared.size}`, line: lines.length };
          declared.set(id, d);
          lines.push(`const ${d.name} = ${json} satisfies ${elementType};`);
          at.set(d.line, { element: { key, json }, cases: [] });
        }
        at.get(d.line)?.cases.push(index);
        return d.name;
      });
      parts[key] = `[${names.join(', ')}]`;
    }
    at.set(lines.length, { cases: [index] });
    lines.push(`export const b${index} = ${shape.wrap(parts)} satisfies P;`);
  }
  for (const d of declared.values()) lines.push(`void ${d.name};`);
  return { text: `${lines.join('\n')}\n`, lines: at };
}

/** Type-checks every body against its provider's SDK request type, in one in-memory program. */
export function typeCheckBodies(cases: readonly Pick<BodyCase, 'provider' | 'body'>[], root: string, now: () => number = Date.now): TypeResult {
  const started = now();
  const byProvider = new Map<ProviderId, { index: number; body: unknown }[]>();
  cases.forEach((c, index) => {
    const list = byProvider.get(c.provider) ?? [];
    list.push({ index, body: c.body });
    byProvider.set(c.provider, list);
  });
  const generated = new Map<string, Generated>();
  for (const [provider, list] of byProvider) generated.set(join(root, '.sdk-check', `${provider}.ts`), generate(provider, list));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) => {
    const g = generated.get(name);
    return g ? ts.createSourceFile(name, g.text, version) : getSourceFile(name, version, onError, create);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => generated.has(name) || (!RUNTIME_ONLY.test(name) && fileExists(name));
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => generated.get(name)?.text ?? readFile(name);
  const program = ts.createProgram([...generated.keys()], options, host);
  const failures: TypeFailure[][] = cases.map(() => []);
  let declarations = 0;
  for (const [name, g] of generated) {
    declarations += g.lines.size;
    const sf = program.getSourceFile(name);
    if (!sf) continue;
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const line = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start).line : -1;
      const owner = g.lines.get(line);
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      for (const c of owner?.cases ?? []) failures[c]?.push({ message, element: owner?.element });
    }
  }
  return { failures, declarations, millis: now() - started };
}

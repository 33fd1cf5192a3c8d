/**
 * The bad-input matrix of apps/server/test/bad-input.test.ts: which /api routes the app serves (from its own
 * route tree), which fields each takes (from the OpenAPI document the validating schemas generate, and from
 * `:param` segments of hidden routes), the table of malformed values, and a runner that sends every request
 * in zh and en and checks the FAILED envelope. No assertions live here on business rules: the test file owns
 * the per-route bases and exceptions.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ERROR_MESSAGES, FIELD_LABELS, FIELD_SENTENCES, PARAM_SENTENCES } from '@exchange/api';

/** One route of the app: method (GET/POST/...) and the URL pattern as registered ('/api/...'). */
export interface RouteKey {
  method: string;
  url: string;
}

/**
 * Every route the app registered, from `app.printRoutes({ commonPrefix: false })` (HEAD, which Fastify adds to
 * every GET, is left out). The tree prints one segment per line; a line's full URL is its ancestors' text joined.
 */
export function listRoutes(app: FastifyInstance): RouteKey[] {
  const text = app.printRoutes({ commonPrefix: false });
  const stack: Array<{ depth: number; path: string }> = [];
  const out: RouteKey[] = [];
  for (const line of text.split('\n')) {
    const m = /^([\s│]*)(?:[└├]── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const path = (stack.length > 0 ? stack[stack.length - 1]!.path : '') + m[2]!;
    stack.push({ depth, path });
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && s !== 'HEAD')) {
      out.push({ method, url: path });
    }
  }
  return out.sort((a, b) => (a.url + a.method).localeCompare(b.url + b.method));
}

/** A JSON-schema fragment as the OpenAPI document carries it (only the keys the matrix reads). */
export interface FieldSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: FieldSchema[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** One input field of a route: where it travels, whether it is required, and its schema. */
export interface Field {
  name: string;
  in: 'query' | 'body' | 'params';
  required: boolean;
  schema: FieldSchema;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: FieldSchema }>;
  requestBody?: { content?: Record<string, { schema?: { required?: string[]; properties?: Record<string, FieldSchema> } }> };
}

/**
 * The fields of `route` from the OpenAPI document `doc` (querystring parameters and body properties) plus the
 * `:param` segments of its URL (routes hidden from the document have only those).
 */
export function fieldsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }, route: RouteKey): Field[] {
  const fields: Field[] = [];
  for (const seg of route.url.split('/'))
    if (seg.startsWith(':')) fields.push({ name: seg.slice(1), in: 'params', required: true, schema: { type: 'string' } });
  const op = doc.paths[route.url]?.[route.method.toLowerCase()];
  if (!op) return fields;
  for (const p of op.parameters ?? []) if (p.in === 'query') fields.push({ name: p.name, in: 'query', required: p.required === true, schema: p.schema });
  const body = op.requestBody?.content?.['application/json']?.schema;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    fields.push({ name, in: 'body', required: (body?.required ?? []).includes(name), schema });
  }
  return fields;
}

/** The literal values a field's schema allows, when it is an enum (`enum` or `anyOf` of enums); else []. */
export function enumValues(schema: FieldSchema): string[] {
  if (schema.enum) return schema.enum.map(String);
  if (schema.anyOf) return schema.anyOf.flatMap((s) => (s.enum ?? []).map(String));
  return [];
}

/** Injection strings: SQL, HTML/script, Log4Shell-style lookup, path traversal. */
export const INJECTIONS = ["' OR 1=1 --", '<script>alert(1)</script>', '${jndi:ldap://x}', '../../etc/passwd'] as const;

/**
 * Hostile text: a NUL byte, lone surrogates, an RTL override, and ids of 2^63 and 20 digits (beyond
 * PostgreSQL's bigint). Overlong UTF-8 cannot be a JS string: bad-input.test.ts sends it as raw bytes.
 */
export const HOSTILE_TEXT = ['a\u0000b', '\ud800', 'x\udc00', 'abc\u202Egnp.exe', '9223372036854775808', '99999999999999999999'] as const;

/** The scalar rows of the table, sent to every field (as strings: form fields and query values are strings). */
export const SCALAR_VALUES = ['NaN', 'Infinity', '-Infinity', '-1', '0', '1e308', '0.123456789012345678901', ...INJECTIONS, ...HOSTILE_TEXT] as const;

/** A 1,000,000-character string: under the 1 MiB body limit, so it reaches validation. */
export const ONE_MB = 'A'.repeat(1_000_000);

/** What one case puts in a field: a string, a JSON value of another type, or the field left out. */
export type CaseValue = { kind: 'string'; value: string } | { kind: 'json'; value: unknown } | { kind: 'repeat'; values: string[] } | { kind: 'missing' };

/** One malformed request: the field it targets, a label for messages, and the value. */
export interface Case {
  field: string;
  label: string;
  value: CaseValue;
  /** The row of the table this case sends ('-1' for both the string and the JSON number), for exceptions. */
  tableValue: string;
}

/**
 * The table for one field: missing (when required), wrong types (an object and a two-item array in JSON; a repeated
 * key in forms and queries), the scalar rows, an unknown enum value for enums ('UNKNOWN' and the first value in
 * lower case), `unknown` extra values from the test (e.g. a well-formed but unlisted pair) and, when `withHuge`, the
 * 1 MB string. JSON number forms of -1, 0 and 1e308 are added for body fields.
 */
export function casesFor(field: Field, unknown: string[], withHuge: boolean): Case[] {
  const out: Case[] = [];
  const add = (label: string, value: CaseValue, tableValue = label) => out.push({ field: field.name, label, value, tableValue });
  if (field.required) add('missing', { kind: 'missing' });
  if (field.in === 'body') {
    add('object', { kind: 'json', value: { a: 1 } });
    add('array', { kind: 'json', value: ['1', '2'] });
    for (const [n, row] of [
      [-1, '-1'],
      [0, '0'],
      [1e308, '1e308'],
    ] as const)
      add(`number ${row}`, { kind: 'json', value: n }, row);
  }
  if (field.in !== 'params') add('repeated key', { kind: 'repeat', values: ['1', '2'] });
  for (const v of SCALAR_VALUES) add(JSON.stringify(v), { kind: 'string', value: v }, v);
  const enums = enumValues(field.schema);
  if (enums.length > 0) {
    add('unknown enum', { kind: 'string', value: 'UNKNOWN' }, 'UNKNOWN');
    const lower = enums[0]!.toLowerCase();
    if (!enums.includes(lower)) add(`enum in lower case ${JSON.stringify(lower)}`, { kind: 'string', value: lower }, lower);
  }
  for (const v of unknown) add(`unknown ${JSON.stringify(v)}`, { kind: 'string', value: v }, v);
  if (withHuge) add('1 MB string', { kind: 'string', value: ONE_MB });
  return out;
}

/** How a request is encoded: POST bodies go as JSON and as a form; queries and params as they are. */
export type Encoding = 'json' | 'form' | 'query';

/** A request to send: route, field values (query or body), encoding and auth headers. */
export interface Shot {
  route: RouteKey;
  base: Record<string, string>;
  fields: Field[];
  kase: Case | null;
  encoding: Encoding;
  headers: Record<string, string>;
  /** Raw body that replaces the encoded one (the oversize-body case). */
  rawBody?: string;
  /** Raw URL that replaces the built one (a malformed percent-encoding). */
  rawUrl?: string;
}

function put(target: Record<string, unknown>, field: string, value: CaseValue): void {
  if (value.kind === 'missing') delete target[field];
  else if (value.kind === 'string') target[field] = value.value;
  else if (value.kind === 'json') target[field] = value.value;
  else target[field] = value.values;
}

function toSearch(values: Record<string, unknown>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else if (v !== undefined) sp.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return sp.toString();
}

/** Sends `shot` with header lang = `lang` through app.inject. */
export async function send(app: FastifyInstance, shot: Shot, lang: 'zh' | 'en'): Promise<LightMyRequestResponse> {
  const byLoc: Record<Field['in'], Record<string, unknown>> = { query: {}, body: {}, params: {} };
  for (const [k, v] of Object.entries(shot.base)) {
    const loc = shot.fields.find((f) => f.name === k)?.in ?? (shot.route.method === 'GET' ? 'query' : 'body');
    byLoc[loc][k] = v;
  }
  if (shot.kase) {
    const loc = shot.fields.find((f) => f.name === shot.kase!.field)!.in;
    put(byLoc[loc], shot.kase.field, shot.kase.value);
  }
  // A lone surrogate cannot be percent-encoded: in a path it travels as U+FFFD, as a browser would send it.
  const enc = (v: string) => encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());
  let url = shot.route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => enc(String(byLoc.params[name] ?? '')));
  const qs = toSearch(byLoc.query);
  if (qs !== '') url += `?${qs}`;
  if (shot.rawUrl !== undefined) url = shot.rawUrl;
  const headers: Record<string, string> = { ...shot.headers, lang };
  if (shot.route.method === 'GET') return app.inject({ method: 'GET', url, headers });
  if (shot.rawBody !== undefined) {
    return app.inject({ method: shot.route.method as 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: shot.rawBody });
  }
  if (shot.encoding === 'json') {
    return app.inject({
      method: shot.route.method as 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(byLoc.body),
    });
  }
  return app.inject({
    method: shot.route.method as 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: toSearch(byLoc.body),
  });
}

/** The API envelope as the client sees it. */
export interface Envelope {
  status: string;
  errorCode: string;
  errorMessage: string;
  result: unknown;
}

const CJK = /[\u3400-\u9fff\uff00-\uffef]/;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * True when `message` is a sentence of `code` in `lang` (packages/api messages.ts): its plain message, its
 * field sentence with a field's human name (FIELD_LABELS: never a wire name), or its parameter sentence with
 * values filled in.
 */
export function isMessageOf(code: string, lang: 'zh' | 'en', message: string): boolean {
  const plain = (ERROR_MESSAGES as Record<string, { zh: string; en: string }>)[code]?.[lang];
  if (plain === undefined) return false;
  if (message === plain) return true;
  const labels = Object.values(FIELD_LABELS)
    .map((l) => escapeRe(l[lang]))
    .join('|');
  const sentence = (template: string) =>
    new RegExp(`^${escapeRe(template).replace(/\\\{(\w+)\\\}/g, (_m, name: string) => (name === 'field' ? `(?:${labels})` : '[^{}]+'))}$`);
  const withField = FIELD_SENTENCES[code]?.[lang];
  const withParams = PARAM_SENTENCES[code]?.[lang];
  return (withField !== undefined && sentence(withField).test(message)) || (withParams !== undefined && sentence(withParams).test(message));
}

/**
 * Problems with a zh/en pair of answers to one bad request, [] when it is a proper rejection: both 4xx, both FAILED
 * envelopes with result null and a known non-empty errorCode, each message the translation of its code in its
 * language (isMessageOf: the plain message, or its sentence naming a field in words or a value), the zh one with CJK characters, the en one
 * without, and the two different. Both answers must carry the same status and code unless `stateful` (a route
 * whose rejections move a counter, e.g. the login lockout, may answer the second request differently).
 */
export function rejectionProblems(zh: LightMyRequestResponse, en: LightMyRequestResponse, stateful = false): string[] {
  const problems: string[] = [];
  for (const [lang, res] of [
    ['zh', zh],
    ['en', en],
  ] as const) {
    if (res.statusCode < 400 || res.statusCode > 499) problems.push(`${lang}: HTTP ${res.statusCode} (want 4xx)`);
    let body: Envelope;
    try {
      body = res.json<Envelope>();
    } catch {
      problems.push(`${lang}: body is not JSON: ${res.body.slice(0, 120)}`);
      continue;
    }
    if (body.status !== 'FAILED') problems.push(`${lang}: status ${body.status}`);
    if (body.result !== null) problems.push(`${lang}: result is not null`);
    const known = (ERROR_MESSAGES as Record<string, { zh: string; en: string }>)[body.errorCode];
    if (typeof body.errorCode !== 'string' || body.errorCode === '' || !known) {
      problems.push(`${lang}: errorCode ${JSON.stringify(body.errorCode)} unknown`);
      continue;
    }
    if (typeof body.errorMessage !== 'string' || !isMessageOf(body.errorCode, lang, body.errorMessage)) {
      problems.push(`${lang}: message ${JSON.stringify(body.errorMessage)} is not the ${lang} text of ${body.errorCode}`);
    }
    if (lang === 'zh' && !CJK.test(body.errorMessage)) problems.push(`zh message has no Chinese: ${body.errorMessage}`);
    if (lang === 'en' && CJK.test(body.errorMessage)) problems.push(`en message has Chinese: ${body.errorMessage}`);
  }
  if (problems.length > 0) return problems;
  const z = zh.json<Envelope>();
  const e = en.json<Envelope>();
  if (!stateful && zh.statusCode !== en.statusCode) problems.push(`status differs by language: zh ${zh.statusCode}, en ${en.statusCode}`);
  if (!stateful && z.errorCode !== e.errorCode) problems.push(`errorCode differs by language: zh ${z.errorCode}, en ${e.errorCode}`);
  if (z.errorMessage === e.errorMessage) problems.push(`zh and en messages are the same: ${e.errorMessage}`);
  return problems;
}

/** Problems with an answer to a request whose value the route may accept: never 5xx, always an envelope. */
export function acceptedProblems(res: LightMyRequestResponse): string[] {
  if (res.statusCode >= 500) return [`HTTP ${res.statusCode}`];
  let body: Envelope;
  try {
    body = res.json<Envelope>();
  } catch {
    return [`body is not JSON: ${res.body.slice(0, 120)}`];
  }
  if (body.status === 'SUCCEED') return res.statusCode === 200 ? [] : [`SUCCEED with HTTP ${res.statusCode}`];
  if (body.status === 'FAILED')
    return res.statusCode >= 400 && body.errorCode in ERROR_MESSAGES ? [] : [`FAILED with HTTP ${res.statusCode} code ${body.errorCode}`];
  return [`status ${body.status}`];
}

/** Runs `jobs` with at most `width` in flight, keeping the order of results. */
export async function inBatches<T, R>(jobs: T[], width: number, run: (job: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await run(jobs[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}

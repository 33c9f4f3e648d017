// The workbench's Content-Security-Policy. The build puts it in index.html as a
// <meta http-equiv> (vite.config.ts), so it holds under `vite preview` and any
// static host; a server that can send headers (the local bridge) sends
// `cspHeader()`, which adds what a meta tag cannot carry.
//
// Directives as in CSP Level 3 (https://www.w3.org/TR/CSP3/) and MDN's "CSP source values"
// (https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Content-Security-Policy/Sources),
// both read 2026-12-02:
// - scripts and workers from the page's own origin only, no inline script, no eval;
// - Monaco sets inline styles on its DOM nodes, so styles allow 'unsafe-inline' and nothing wider;
// - connect-src: the page's origin and loopback, any port (`http://host:*` also matches https, a
//   "secure upgrade"). A host-source cannot name an IPv6 literal (w3c/webappsec#49), and a meta
//   tag cannot list origins the user confirms later, so a live server must be on 127.0.0.1 or
//   localhost: src/live/mcp.ts refuses any other host with that reason, before a request;
// - frame-ancestors is not supported in a meta tag (MDN, "CSP: frame-ancestors"; the HTML
//   standard forbids it there, whatwg/html#523): only the header carries it.

export const CSP_DIRECTIVES: readonly (readonly [string, readonly string[]])[] = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['worker-src', ["'self'"]],
  ['style-src', ["'self'", "'unsafe-inline'"]],
  // data: for the empty favicon; blob: for the chart's SVG export preview.
  ['img-src', ["'self'", 'data:', 'blob:']],
  ['font-src', ["'self'"]],
  ['connect-src', ["'self'", 'http://127.0.0.1:*', 'http://localhost:*']],
  ['object-src', ["'none'"]],
  ['frame-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'none'"]],
];

function serialize(directives: readonly (readonly [string, readonly string[]])[]): string {
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** The policy as a <meta http-equiv="Content-Security-Policy"> carries it. */
export function cspMetaContent(): string {
  return serialize(CSP_DIRECTIVES);
}

/** The policy as a response header: the same, plus frame-ancestors (no page may frame the workbench). */
export function cspHeader(): string {
  return serialize([...CSP_DIRECTIVES, ['frame-ancestors', ["'none'"]]]);
}

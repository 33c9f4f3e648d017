// `--cfg KEY:=JSON`: whether the value is JSON and, when not, where it goes wrong (an offset), so the
// error can point at the exact column whatever the host's JSON.parse message says. The scan is the
// core's one JSON scanner (input/json.ts), with its depth cap.
import { scanJson } from '../input/json';

export type JsonCheck = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly offset: number };

export function checkJson(text: string): JsonCheck {
  const problem = scanJson(text);
  return problem ? { ok: false, message: problem.message, offset: problem.offset } : { ok: true };
}

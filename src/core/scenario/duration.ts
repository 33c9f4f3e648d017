// Durations as a scenario writes them: "90s", "6m", "1h", "1h30m" (or a bare number of seconds).

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Seconds in a duration string, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const m = DURATION.exec(t);
  if (!m || t === '') return undefined;
  const [, h, min, s] = m;
  return Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0);
}

/** The shortest duration string for a number of seconds ("6m", "1h30m", "90s" stays "1m30s"). */
export function formatDuration(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 0) return String(seconds);
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h > 0 ? `${h}h` : ''}${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`;
}

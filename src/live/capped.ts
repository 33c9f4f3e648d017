// A fetch for the MCP transport that stops reading a reply once it passes a size
// cap. The SDK parses a reply whole (JSON.parse, then its schema on every tool) on
// the main thread; a 50,000-tool list took 12 s of long tasks before the importer's
// own cap could say no. Counting the bytes as they stream lets the connection fail
// at once, with that reason, before anything is parsed.

/** In the message of every error a cut body raises, so the transport's error handler knows it. */
export const OVER_CAP_MARK = 'reply over the size cap';

/** What the reply passed, for the error sentence. */
export interface Exceeded {
  readonly limit: number;
  /** Bytes read when it stopped (at least `limit + 1`), or the announced Content-Length. */
  readonly bytes: number;
  readonly announced: boolean;
}

/**
 * Wraps `base` so the body of every reply to a request (a POST) is counted; past `limit` bytes
 * the body errors and `onExceeded` is told (once per response). A Content-Length over the limit
 * stops before reading. The long-lived GET event stream, which carries notifications for the
 * whole session, is left alone: its bytes add up over hours without any one message being large.
 */
export function cappedFetch(base: typeof fetch, limit: number, onExceeded: (e: Exceeded) => void): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const body = response.body;
    if (!body || (init?.method ?? 'GET').toUpperCase() === 'GET') return response;
    const announced = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(announced) && announced > limit) {
      await body.cancel().catch(() => undefined);
      const e: Exceeded = { limit, bytes: announced, announced: true };
      onExceeded(e);
      return new Response(errorStream(e), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    let read = 0;
    let told = false;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          if (read > limit) {
            if (!told) {
              told = true;
              onExceeded({ limit, bytes: read, announced: false });
            }
            controller.error(new RangeError(`${OVER_CAP_MARK}: passed ${limit} bytes`));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function errorStream(e: Exceeded): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(new RangeError(`${OVER_CAP_MARK}: announced ${e.bytes} bytes, over ${e.limit}`));
    },
  });
}

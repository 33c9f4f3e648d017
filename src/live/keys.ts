// The react-query key factory of live servers, on its own so that the test hook (src/app/testHook.ts,
// in the first chunk) can read the queries without pulling the MCP client code in with queries.ts.
export const liveKeys = {
  all: ['live'] as const,
  server: (url: string) => [...liveKeys.all, url] as const,
  connection: (url: string) => [...liveKeys.server(url), 'connection'] as const,
  toolsOf: (url: string) => [...liveKeys.server(url), 'tools'] as const,
  tools: (url: string, session: string) => [...liveKeys.toolsOf(url), session] as const,
};

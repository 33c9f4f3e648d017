// A Sets row's "server · status": the server's real status (a live server's state now, src/live/
// serverWord.ts), so the row never reads "running" beside "server stopped now" or for a server that
// failed to start. The sets themselves stay derived from the recorded status, which the title says.
import type { ServerDoc } from '../../core';
import { useLiveServer } from '../../live/useLiveServer';
import { serverWord } from '../../live/serverWord';
import type { ServerWord } from '../../live/serverWord';
import { useWorkbench } from '../../state/context';

function Word({ name, word }: { readonly name: string; readonly word: ServerWord }) {
  const title = word.recorded !== undefined
    ? `MCP server ${name}: ${word.word} now. The document recorded it ${word.recorded}, and the sets follow the recording.`
    : `MCP server ${name}: ${word.word}`;
  return (
    <span className={`st-server ${word.tone}`} title={title} data-testid="server-word" data-status={word.word}>
      {name} · {word.word}
    </span>
  );
}

function LiveWord({ server, recorded }: { readonly server: ServerDoc; readonly recorded: string }) {
  const { status } = useLiveServer(server);
  return <Word name={server.name} word={serverWord(recorded, status)} />;
}

/** `recorded`: the status the derivation read (the sets follow it). */
export function ServerWordOfRow({ name, recorded }: { readonly name: string; readonly recorded: string }) {
  const server = useWorkbench((s) => s.doc.servers.find((x) => x.name === name));
  const linked = useWorkbench((s) => s.bridgeLinks.has(name));
  if (!server || (server.url === undefined && !linked)) return <Word name={name} word={serverWord(recorded, undefined)} />;
  return <LiveWord server={server} recorded={recorded} />;
}

// MCP annotations as words: read-only and destructive badges, and the tool's
// title. Untrusted text, rendered as text.
import './tool-hints.css';

export interface ToolHintsProps {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly title?: string;
}

export function ToolHintBadges({ readOnly, destructive }: Pick<ToolHintsProps, 'readOnly' | 'destructive'>) {
  return (
    <>
      {readOnly && (
        <span className="hint read-only" title="MCP annotation readOnlyHint: the tool does not change anything">
          read-only
        </span>
      )}
      {destructive && (
        <span className="hint destructive" title="MCP annotation destructiveHint: the tool may delete or overwrite">
          destructive
        </span>
      )}
    </>
  );
}

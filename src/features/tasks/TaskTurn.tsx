// One task's turn as the scratch copy played it: the timeline rows of that turn (requests, calls with
// their search results, the reply), whether each needed tool was offered at each request, and the one
// way the document changes: "Add this turn to the document". A model A/B's task (`arm`) opens the same
// way, its turn as the user's model played it in that arm.
import { useQuery } from '@tanstack/react-query';
import type { TaskResult } from '../../core';
import type { Arm } from '../../core/tasks/ab';
import { deriveQuery, useDeriveClient } from '../../derive/queries';
import { useWorkbenchStore } from '../../state/context';
import { OutcomeBadge } from './TaskTable';

export function TaskTurn({ run, result, onClose, arm }: { readonly run: number; readonly result: TaskResult; readonly onClose: () => void; readonly arm?: { readonly arm: Arm; readonly words: string } }) {
  const client = useDeriveClient();
  const store = useWorkbenchStore();
  const query = arm ? deriveQuery(client, 'abTurn', { run, arm: arm.arm, index: result.index }) : deriveQuery(client, 'taskTurn', { run, index: result.index });
  const { data, error } = useQuery({
    ...query,
    staleTime: Infinity,
    gcTime: 10_000,
  });
  let request = -1;
  return (
    <section className="tk-turn" aria-label={`Task ${result.index + 1}${arm ? `, arm ${arm.arm}` : ''}: its turn on the scratch copy`} data-testid="tk-turn">
      <header>
        <strong>Task {result.index + 1}{arm ? `, arm ${arm.arm}` : ''}</strong> <OutcomeBadge result={result} /> <span className="tk-reason">{result.reason}</span>
        <span className="spacer" />
        <button type="button" data-testid="tk-add-turn" disabled={!data} onClick={() => data && store.getState().addStep(data.step)} title="Append this turn to the document (the only way a task run changes it)">
          Add this turn to the document
        </button>
        <button type="button" onClick={onClose} aria-label="Close the task's turn">Close</button>
      </header>
      <p className="tk-note">
        {arm ? `Your model's turn in arm ${arm.arm} (${arm.words}): the document's steps, then this task as one more turn, as the model played it. The document is unchanged.` : "The scratch copy: the document's steps, then this task as one more turn. The document is unchanged."}
      </p>
      {error ? <p className="tk-error" role="alert">{String(error)}</p> : null}
      <ol className="tk-entries" data-testid="tk-turn-rows">
        {data?.entries.map((e) => {
          if (e.kind === 'request') request += 1;
          const offered = e.kind === 'request' ? (data.offered[request] ?? []) : undefined;
          return (
            <li key={e.index} className={`tk-entry depth-${e.depth}`} data-kind={e.kind}>
              <span className="tk-kind">{e.kind}</span> <span className="tk-label">{e.label}</span>
              {e.detail ? <span className="tk-detail"> {e.detail}</span> : null}
              {offered ? (
                <span className="tk-offered">
                  {result.needed.map((n) => (
                    <span key={n.name} className={`word ${offered.includes(n.name) ? 'tk-yes' : 'tk-no'}`}>
                      {n.name} {offered.includes(n.name) ? 'offered' : 'not offered'}
                    </span>
                  ))}
                </span>
              ) : null}
              {e.search ? (
                <span className="tk-search">
                  {' '}returned {e.search.returned.map((r, i) => `${i + 1}. ${r.name} (${r.status})`).join(', ') || 'nothing'}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

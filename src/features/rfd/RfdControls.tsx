// The RFD view's button in the header, its commands (show the view; save the review report), and the
// banner that offers back the document an RFD row's scenario replaced.
import { useEffect } from 'react';
import { useCommands } from '../../commands/context';
import { useDeriveClient } from '../../derive/queries';
import { reportHtmlOf } from '../../derive/reportHooks';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { downloadBlob } from '../../components/download';
import { usePrices } from '../../state/prices';
import { returnToDocument } from './open';

function reportFileName(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
  return `${slug}.review.html`;
}

export function RfdButton() {
  const store = useWorkbenchStore();
  const client = useDeriveClient();
  const registry = useCommands();
  const page = useWorkbench((s) => s.page);
  const setPage = useWorkbench((s) => s.setPage);
  useEffect(() => {
    registry.register(
      {
        id: 'view.rfd',
        title: 'Show RFD 108, live (its tables as the engine computes them)',
        shortcut: 'Alt+R',
        group: 'View',
        run: ({ store: s }) => s.getState().setPage(s.getState().page === 'rfd' ? 'workbench' : 'rfd'),
      },
      {
        id: 'report.save',
        title: 'Save the review report (one self-contained HTML file)',
        group: 'File',
        run: async ({ store: s }) => {
          const { revision, doc } = s.getState();
          try {
            const html = await reportHtmlOf(client, revision, new Date(), usePrices.getState().table);
            downloadBlob(reportFileName(doc.name), new Blob([html], { type: 'text/html' }));
            s.getState().showBanner('info', `Saved ${reportFileName(doc.name)}: the RFD tables and this scenario, as tool-workbench report writes them (priced at the Cost tab's prices).`);
          } catch (e) {
            s.getState().showBanner('error', `The report could not be made: ${e instanceof Error ? e.message : String(e)}`);
          }
        },
      },
    );
  }, [registry, client, store]);
  return (
    <button type="button" aria-pressed={page === 'rfd'} onClick={() => setPage(page === 'rfd' ? 'workbench' : 'rfd')} title="RFD 108's tables as the engine computes them (Alt+R)" data-testid="rfd-button">
      RFD 108
    </button>
  );
}

export function ReturnBanner() {
  const store = useWorkbenchStore();
  const returnTo = useWorkbench((s) => s.returnTo);
  const setReturnTo = useWorkbench((s) => s.setReturnTo);
  if (!returnTo) return null;
  return (
    <div className="banner info" role="status" data-testid="rfd-return-banner">
      <span className="msg">
        Opened “{returnTo.opened}” from the RFD view. Your document “{returnTo.name}” is kept in Recent documents.
      </span>
      <button type="button" onClick={() => void returnToDocument(store)} data-testid="rfd-return">
        Back to “{returnTo.name}”
      </button>
      <button type="button" onClick={() => setReturnTo(undefined)}>
        Keep this one
      </button>
    </div>
  );
}

// The first screen's one plain paragraph, for someone who has never heard of RFD 108: what the
// workbench is for, what the three sets mean, and what the demo shows (on a user's own document, its
// name instead). It stands where the scenario's one-line description goes (the app shows that once it
// is put away). "Got it" puts it away for this browser; Help (F1) shows it again.

import { useWorkbench } from '../../state/context';

const DISMISSED = 'tool-workbench.welcome-dismissed';

/** The built-in demo's name (src/app/demo-scenario.toml; a test holds the two the same). */
export const DEMO_NAME = 'Demo: why did the last deploy fail?';

/** The most of a document's name the paragraph shows: about the demo sentence's length in all. */
const NAME_SHOWN = 60;

/**
 * The paragraph's last sentence: the demo's story while the document is the demo, and on a user's
 * own document (opened from a file, a folder, a link) its name, since the demo's story is not on screen.
 */
export function aboutTheDocument(name: string): string {
  if (name === DEMO_NAME) return 'The demo is a conversation about a failed deploy: search finds the GitHub and Sentry tools.';
  const own = name.trim();
  if (own === '') return '';
  // A long name would push the paragraph onto more lines and the panels down: it is cut.
  return `The open document is “${own.length > NAME_SHOWN ? `${own.slice(0, NAME_SHOWN - 1)}…` : own}”.`;
}

export function welcomeDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED) === '1';
  } catch {
    return false;
  }
}

export function dismissWelcome(): void {
  try {
    localStorage.setItem(DISMISSED, '1');
  } catch {
    // Storage refused (a private window): it goes away for this visit only.
  }
}

/** The paragraph itself, shared by the first screen and Help. */
export function WhatItIsFor() {
  const about = aboutTheDocument(useWorkbench((s) => s.doc.name));
  return (
    <>
      The workbench shows which tools a language model is sent with each request, and what that costs. <strong>Permitted</strong>: the model may call the tool.{' '}
      <strong>Offered</strong>: its definition is sent up front in every request (tokens each time). <strong>Searchable</strong>: permitted but not sent; the model
      finds it with <code>search_tools</code>, then it is offered.{about && ` ${about}`}
    </>
  );
}

export function Welcome({ onTour, onDismiss }: { readonly onTour: () => void; readonly onDismiss: () => void }) {
  return (
    <section className="welcome" role="region" aria-label="What this workbench is for" data-testid="welcome">
      <p>
        <WhatItIsFor />
      </p>
      <div className="welcome-buttons">
        <button type="button" onClick={onTour}>
          Take the tour
        </button>
        <button
          type="button"
          onClick={() => {
            dismissWelcome();
            onDismiss();
          }}
        >
          Got it
        </button>
      </div>
    </section>
  );
}

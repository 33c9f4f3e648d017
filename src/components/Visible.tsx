// Commands, folders and names as the user must see them before anything runs: each
// hidden character (bidi control, zero-width, control) as its escape, marked and
// named on hover, and each word of a command isolated from its neighbours' text
// direction. Used wherever a command from a workspace is shown.
import { Fragment } from 'react';
import { hiddenParts, shellWord } from '../core';
import './visible.css';

/** Text as it is, each hidden character replaced by its escape, marked and named. */
export function Visible({ text }: { readonly text: string }) {
  return (
    <>
      {hiddenParts(text).map((p, i) =>
        p.hidden ? (
          <mark key={i} className="hidden-char" title={`${p.hidden.code} ${p.hidden.name}`} data-testid="hidden-char">
            {p.text}
          </mark>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}

/** A command line as words, each quoted as a shell would need and isolated, so no word's text direction reorders another. */
export function CommandWords({ words }: { readonly words: readonly string[] }) {
  return (
    <>
      {words.map((w, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          <span className="bridge-word">
            <Visible text={shellWord(w)} />
          </span>
        </Fragment>
      ))}
    </>
  );
}


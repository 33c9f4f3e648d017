// The scenario's description (its story, in the author's words), one line under the header; "more"
// shows all of it. Rendered as text: a description comes from any file or shared link.
import { useState } from 'react';
import { useTimeline } from '../../derive/hooks';
import { useWorkbench } from '../../state/context';

export function ScenarioAbout() {
  const description = useWorkbench((s) => s.doc.description?.trim() ?? '');
  const [open, setOpen] = useState(false);
  // The count is the core's (TimelineView.tools), in the words the sets panel and the Cost tab use.
  const tools = useTimeline().data?.tools;
  if (description === '') return null;
  return (
    <section className={`about ${open ? 'open' : ''}`} aria-label="About this scenario" data-testid="scenario-about">
      <span className="about-label">About this scenario</span>
      {tools && (
        <span className="about-count" data-testid="tool-count" title="Every tool the layers configure, whatever its availability, plus the builtins">
          {tools.label}
        </span>
      )}
      <p className="about-text" data-testid="scenario-description">
        {description}
      </p>
      <button type="button" className="about-more" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'less' : 'more'}
      </button>
    </section>
  );
}

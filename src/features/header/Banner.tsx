import { useWorkbench } from '../../state/context';

export function Banner() {
  const banner = useWorkbench((s) => s.banner);
  const dismiss = useWorkbench((s) => s.dismissBanner);
  if (!banner) return null;
  return (
    <div className={`banner ${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'} data-testid="banner">
      <span className="msg">{banner.message}</span>
      <button type="button" onClick={dismiss} aria-label="Dismiss">Dismiss</button>
    </div>
  );
}

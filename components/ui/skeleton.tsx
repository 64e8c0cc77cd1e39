/** A placeholder block with the size of what it stands for, so nothing moves when content arrives. */
export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-slate-800 motion-reduce:animate-none ${className}`} />;
}

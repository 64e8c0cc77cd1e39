import { QueryProvider } from "@/components/query-provider";

// This page's forms read and write through TanStack Query; the root layout leaves it out (see QueryProvider).
export default function Layout({ children }: { children: React.ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}

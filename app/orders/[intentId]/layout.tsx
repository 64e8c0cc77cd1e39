import { PageMessages } from "@/components/i18n/page-messages";
import { QueryProvider } from "@/components/query-provider";

// The texts this page's client components read;
// and TanStack Query, which its forms use and the root layout leaves out (see QueryProvider).
export default function Layout({ children }: { children: React.ReactNode }) {
  return (
    <PageMessages names={["orders"]}>
      <QueryProvider>{children}</QueryProvider>
    </PageMessages>
  );
}

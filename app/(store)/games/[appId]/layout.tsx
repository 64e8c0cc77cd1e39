import { PageMessages } from "@/components/i18n/page-messages";
import { QueryProvider } from "@/components/query-provider";

// The texts this page's client components read (its forms may read any of the store's);
// and TanStack Query, which its forms use and the root layout leaves out (see QueryProvider).
export default function Layout({ children }: { children: React.ReactNode }) {
  return (
    <PageMessages names={"storefront"}>
      <QueryProvider>{children}</QueryProvider>
    </PageMessages>
  );
}

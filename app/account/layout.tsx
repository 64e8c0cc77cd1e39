import { PageMessages } from "@/components/i18n/page-messages";

// The texts this page's client components read (its forms may read any of the store's).
export default function Layout({ children }: { children: React.ReactNode }) {
  return <PageMessages names={"storefront"}>{children}</PageMessages>;
}

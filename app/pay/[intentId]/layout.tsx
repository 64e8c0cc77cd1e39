import { PageMessages } from "@/components/i18n/page-messages";

// The texts this page's client components read.
export default function Layout({ children }: { children: React.ReactNode }) {
  return <PageMessages names={["pay"]}>{children}</PageMessages>;
}

import { pickMessages, storefrontMessages, type Namespace } from "@/lib/i18n/messages";
import { getMessages } from "@/lib/i18n/server";
import { I18nProvider } from "./i18n-provider";

/**
 * Hands the client components below it the namespaces they read, on top of the root layout's
 * `common`: a list for a page that knows them, "storefront" for pages whose forms may read any.
 */
export async function PageMessages({ names, children }: { names: readonly Namespace[] | "storefront"; children: React.ReactNode }) {
  const { locale, t } = await getMessages();
  return (
    <I18nProvider locale={locale} messages={names === "storefront" ? storefrontMessages(t) : pickMessages(t, names)}>
      {children}
    </I18nProvider>
  );
}

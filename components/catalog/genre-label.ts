import type { Messages } from "@/lib/i18n/messages";

/** A genre's name in the interface language; a genre the store has no translation for keeps its own name. */
export function genreLabel(genre: string, labels: Messages["catalog"]["genres"]): string {
  const key = genre.toLowerCase();
  if (key in labels) return labels[key as keyof typeof labels];
  return genre === key ? genre.charAt(0).toUpperCase() + genre.slice(1) : genre;
}

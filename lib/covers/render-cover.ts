// A store-style header image (460x215) for games that have none. Pure: the same game always gets the same picture.

/**
 * The generated cover's drawing, in its URL (`/covers/{appId}.svg?v=2`): a browser keeps a cover a
 * day as immutable, so a new drawing needs a new URL to reach it. 2: no title on the art.
 */
export const COVER_VERSION = 2;

export const COVER_WIDTH = 460;
export const COVER_HEIGHT = 215;
/** The share card (lib/covers/share-card.tsx): the size link previews ask for. */
export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

const PADDING = 24;
const FONT = "'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
/** Average advance of a bold sans-serif glyph, in ems; close enough to wrap titles. */
const GLYPH_EM = 0.6;
const SIZES = [40, 34, 28, 24];
const SMALLEST = 24;

export interface CoverInput {
  appId: number;
  title: string;
}

function random(seed: number): () => number {
  let a = seed >>> 0 || 1;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function wrap(title: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (let word of title.trim().split(/\s+/)) {
    while (word.length > maxChars) {
      if (line) lines.push(line);
      lines.push(word.slice(0, maxChars));
      word = word.slice(maxChars);
      line = "";
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= maxChars) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** One large line if it fits, else the largest size that fits two; failing that, three small lines, the last cut short. */
export function layoutTitle(title: string): { size: number; lines: string[] } {
  const usable = COVER_WIDTH - 2 * PADDING;
  for (const maxLines of [1, 2]) {
    for (const size of maxLines === 1 ? SIZES.slice(0, 2) : SIZES) {
      const lines = wrap(title, Math.floor(usable / (size * GLYPH_EM)));
      if (lines.length <= maxLines) return { size, lines };
    }
  }
  const size = SMALLEST;
  const maxChars = Math.floor(usable / (size * GLYPH_EM));
  const lines = wrap(title, maxChars);
  if (lines.length <= 3) return { size, lines };
  const last = lines[2]!.slice(0, maxChars - 1).trimEnd();
  return { size, lines: [lines[0]!, lines[1]!, `${last}…`] };
}

const hsl = (h: number, s: number, l: number, a = 1) => `hsla(${Math.round(h) % 360}, ${s}%, ${l}%, ${a})`;
const fixed = (n: number) => n.toFixed(1);

function decoration(rand: () => number, hue: number): string {
  const style = Math.floor(rand() * 3);
  if (style === 0) {
    // A low sun behind two mountain ridges.
    const sunX = 240 + rand() * 180;
    const ridge = (base: number, height: number, color: string) => {
      const points = [`0,${COVER_HEIGHT}`];
      for (let x = 0; x <= COVER_WIDTH; x += 46) points.push(`${x},${fixed(base - rand() * height)}`);
      points.push(`${COVER_WIDTH},${COVER_HEIGHT}`);
      return `<polygon points="${points.join(" ")}" fill="${color}"/>`;
    };
    return [
      `<circle cx="${fixed(sunX)}" cy="${fixed(70 + rand() * 40)}" r="${fixed(38 + rand() * 30)}" fill="${hsl(hue + 40, 90, 70, 0.85)}"/>`,
      ridge(150, 60, hsl(hue + 200, 35, 22, 0.7)),
      ridge(185, 45, hsl(hue + 210, 40, 12, 0.9)),
    ].join("");
  }
  if (style === 1) {
    // Orbits and a planet.
    const cx = 300 + rand() * 120;
    const cy = 60 + rand() * 70;
    const r = 40 + rand() * 35;
    const rings = [1.6, 2.3, 3.1]
      .map(
        (k) =>
          `<ellipse cx="${fixed(cx)}" cy="${fixed(cy)}" rx="${fixed(r * k)}" ry="${fixed(r * k * 0.35)}" fill="none" stroke="${hsl(hue + 180, 80, 80, 0.25)}" stroke-width="1.5" transform="rotate(-18 ${fixed(cx)} ${fixed(cy)})"/>`,
      )
      .join("");
    const stars = Array.from({ length: 28 }, () => {
      return `<circle cx="${fixed(rand() * COVER_WIDTH)}" cy="${fixed(rand() * 150)}" r="${fixed(0.6 + rand() * 1.2)}" fill="#fff" fill-opacity="${(0.3 + rand() * 0.6).toFixed(2)}"/>`;
    }).join("");
    return `${stars}${rings}<circle cx="${fixed(cx)}" cy="${fixed(cy)}" r="${fixed(r)}" fill="url(#planet)"/>`;
  }
  // Angular shards of light.
  return Array.from({ length: 6 }, () => {
    const x = rand() * COVER_WIDTH;
    const w = 30 + rand() * 90;
    const lean = 60 + rand() * 80;
    return `<polygon points="${fixed(x)},0 ${fixed(x + w)},0 ${fixed(x + w - lean)},${COVER_HEIGHT} ${fixed(x - lean)},${COVER_HEIGHT}" fill="${hsl(hue + rand() * 60, 85, 70, 0.08 + rand() * 0.12)}"/>`;
  }).join("");
}

/** The picture behind the title: the same seed, so a game's share card matches its cover. */
function coverArt(appId: number): { defs: string; art: string; accent: string } {
  const rand = random(Math.imul(appId, 2654435761));
  const hue = rand() * 360;
  const hue2 = hue + 40 + rand() * 120;
  const defs = [
    "<defs>",
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 65, 20)}"/><stop offset="1" stop-color="${hsl(hue2, 70, 42)}"/></linearGradient>`,
    `<radialGradient id="planet" cx="0.35" cy="0.35" r="0.75"><stop offset="0" stop-color="${hsl(hue2 + 30, 80, 75)}"/><stop offset="1" stop-color="${hsl(hue2 + 60, 60, 25)}"/></radialGradient>`,
    `<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0.35" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.78"/></linearGradient>`,
    "</defs>",
  ].join("");
  const art = [
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#bg)"/>`,
    decoration(rand, hue),
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#shade)"/>`,
  ].join("");
  return { defs, art, accent: hsl(hue2 + 20, 95, 65) };
}

/**
 * A game's generated cover. `withTitle: false` leaves the title off the art: the store's cards and
 * game page print the title beside the cover (in the page's language), so the art would only repeat it.
 */
export function renderCover({ appId, title }: CoverInput, { withTitle = true }: { withTitle?: boolean } = {}): string {
  const { defs, art, accent } = coverArt(appId);
  if (!withTitle) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${escapeXml(title)}">${defs}${art}</svg>`;
  }
  const { size, lines } = layoutTitle(title);
  const lineHeight = Math.round(size * 1.12);
  const firstBaseline = COVER_HEIGHT - PADDING - (lines.length - 1) * lineHeight;
  const text = lines.map((line, i) => `<tspan x="${PADDING}" y="${firstBaseline + i * lineHeight}">${escapeXml(line)}</tspan>`).join("");
  const accentY = firstBaseline - size - 6;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${escapeXml(title)}">`,
    defs,
    art,
    `<rect x="${PADDING}" y="${accentY}" width="36" height="4" rx="2" fill="${accent}"/>`,
    `<text font-family="${FONT}" font-size="${size}" font-weight="700" fill="#fff" stroke="#000" stroke-opacity="0.25" stroke-width="3" paint-order="stroke" letter-spacing="0.2">${text}</text>`,
    "</svg>",
  ].join("");
}

/**
 * The cover's picture alone, stretched to fill `width` x `height` (cropped, never squashed), for the
 * share card to set its own text on; and the accent colour that goes with it.
 */
export function renderCoverBackground(appId: number, width: number, height: number): { svg: string; accent: string } {
  const { defs, art, accent } = coverArt(appId);
  // The middle of the cover with the card's proportions, so no renderer can squash it.
  const scale = Math.min(COVER_WIDTH / width, COVER_HEIGHT / height);
  const [w, h] = [width * scale, height * scale];
  const viewBox = [(COVER_WIDTH - w) / 2, (COVER_HEIGHT - h) / 2, w, h].map(fixed).join(" ");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}">${defs}${art}</svg>`;
  return { svg, accent };
}

// The 1200x630 PNG a shared game link shows (Open Graph, Twitter): the cover's picture with the title
// and the store's name set in a bundled font. Link previews (Telegram, VK, Facebook, X) do not
// render SVG, so the generated covers need this raster twin; games with a store image use theirs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ImageResponse } from "next/og";
import { renderCoverBackground, SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH } from "./render-cover";

// Liberation Sans Bold (Latin, Greek, Cyrillic), shipped with the code: a server image may have no
// fonts at all. Read once per process. next.config.js traces it into the standalone output.
const FONT_PATH = path.join(process.cwd(), "lib/covers/fonts/LiberationSans-Bold.ttf");
let font: Promise<Buffer> | null = null;
const loadFont = () => (font ??= readFile(FONT_PATH).catch((err: unknown) => ((font = null), Promise.reject(err))));

/** Titles longer than this are cut with an ellipsis; three lines at the chosen size hold it. */
const TITLE_MAX_CHARS = 90;

function titleSize(title: string): number {
  if (title.length <= 20) return 84;
  if (title.length <= 40) return 68;
  return 54;
}

/**
 * The PNG's bytes, rendered in full before anything is sent: ImageResponse renders while it streams,
 * so a failure there would cut the connection after a 200. Throws instead, for the route to answer 500.
 */
export async function renderShareCard({ appId, title }: { appId: number; title: string }): Promise<Uint8Array> {
  const { svg, accent } = renderCoverBackground(appId, SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT);
  // Characters the font lacks (emoji, CJK) would make the renderer fetch glyphs from the network;
  // the card has none to offer, so they are left out of the picture (the link's text keeps them).
  const shown = [...title.normalize("NFC")]
    .filter((ch) => /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}\p{P}\p{Zs}\p{Sm}\p{Sc}]/u.test(ch))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  const text = shown.length > TITLE_MAX_CHARS ? `${shown.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : shown;
  const image = new ImageResponse(
    <div style={{ width: "100%", height: "100%", display: "flex", position: "relative", fontFamily: "Liberation Sans" }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- rendered to a PNG, not a page */}
      <img
        src={`data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`}
        width={SHARE_CARD_WIDTH}
        height={SHARE_CARD_HEIGHT}
        alt=""
        style={{ position: "absolute", inset: 0 }}
      />
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          justifyContent: "flex-end",
          padding: "64px 72px",
          width: "100%",
          height: "100%",
        }}
      >
        <div style={{ width: 96, height: 10, borderRadius: 5, background: accent, marginBottom: 28 }} />
        <div
          style={{ display: "flex", fontSize: titleSize(text), lineHeight: 1.1, color: "#fff", textShadow: "0 3px 12px rgba(0,0,0,0.45)" }}
        >
          {text}
        </div>
        <div style={{ display: "flex", marginTop: 28, fontSize: 34, color: "rgba(255,255,255,0.85)" }}>GiftKey</div>
      </div>
    </div>,
    {
      width: SHARE_CARD_WIDTH,
      height: SHARE_CARD_HEIGHT,
      fonts: [{ name: "Liberation Sans", data: await loadFont(), weight: 700, style: "normal" }],
    },
  );
  return new Uint8Array(await image.arrayBuffer());
}

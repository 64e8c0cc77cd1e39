// The receiver-side verification the API guide shows, kept as source text so that the guide and
// the unit test that runs it (receiver-example.test.ts) can never disagree. Plain Node, no packages.

/** A function a receiver copies: true only for an authentic, fresh callback. */
export const RECEIVER_VERIFY_SOURCE = `import { createHmac, timingSafeEqual } from "node:crypto";

// secret: your "whsec_…" secret from the account page. headers: Node's req.headers.
// rawBody: the request body exactly as received (a string or Buffer), before any JSON parsing.
export function verifyGiftKeyCallback(secret, headers, rawBody, toleranceSeconds = 300) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, value = ""] = entry.split(",");
    const given = Buffer.from(value, "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
`;

/** How the function is used in a plain node:http receiver. */
export const RECEIVER_SERVER_SOURCE = `import http from "node:http";

http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const rawBody = Buffer.concat(chunks).toString("utf8");
    if (!verifyGiftKeyCallback(process.env.GIFTKEY_WEBHOOK_SECRET, req.headers, rawBody)) {
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(rawBody); // { type: "intent.paid", timestamp, data: { intentId, … } }
    // Remember req.headers["webhook-id"]: a repeated id is a retry of a message you already handled.
    res.writeHead(204).end(); // any 2xx ends the retries; 410 Gone stops them for good
  });
}).listen(8080);
`;

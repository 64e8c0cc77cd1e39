import { describe, expect, it } from "vitest";
import { multipartBoundary, readMultipartFile } from "./multipart-file";

const BOUNDARY = "----form-boundary-7MA4YWxk";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function form(parts: { name: string; filename?: string; content: string }[], { preamble = "" } = {}): string {
  const body = parts
    .map(
      (p) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${p.content}\r\n`,
    )
    .join("");
  return `${preamble}${body}--${BOUNDARY}--\r\n`;
}

/** The body as a stream of pieces of `size` bytes, cut anywhere (inside a boundary too). */
function stream(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function read(body: string, size: number, limits = { maxFileBytes: 1 << 20, maxBodyBytes: 2 << 20 }) {
  const file = readMultipartFile(stream(body, size), TYPE, { field: "file", ...limits });
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.chunks) chunks.push(Uint8Array.from(chunk));
  return { text: Buffer.concat(chunks).toString("utf8"), filename: file.filename, bytes: file.bytes };
}

// Text that looks like the framing without being it: a boundary's start, a line break and dashes.
const TRICKY = `{"a": 1}\r\n--${BOUNDARY.slice(0, 10)}\r\n-- \r\n\r\nТихая гавань\r`;

describe("readMultipartFile", () => {
  it.each([1, 2, 5, 17, 64, 1 << 16])("reads the file field out of the form in pieces of %i bytes", async (size) => {
    const body = form(
      [
        { name: "note", content: "skipped" },
        { name: "file", filename: "catalog.jsonl", content: TRICKY },
        { name: "after", content: "never read" },
      ],
      { preamble: "a preamble\r\n" },
    );
    expect(await read(body, size)).toEqual({ text: TRICKY, filename: "catalog.jsonl", bytes: Buffer.byteLength(TRICKY) });
  });

  it("reads an empty file as no bytes", async () => {
    expect(await read(form([{ name: "file", filename: "empty.json", content: "" }]), 7)).toEqual({
      text: "",
      filename: "empty.json",
      bytes: 0,
    });
  });

  it("refuses a file over its limit, and a body over its own, as too large", async () => {
    const body = form([{ name: "file", filename: "big", content: "x".repeat(5000) }]);
    await expect(read(body, 100, { maxFileBytes: 4999, maxBodyBytes: 1 << 20 })).rejects.toMatchObject({ reason: "body_too_large" });
    await expect(read(body, 100, { maxFileBytes: 1 << 20, maxBodyBytes: 4000 })).rejects.toMatchObject({ reason: "body_too_large" });
    await expect(read(body, 100, { maxFileBytes: 5000, maxBodyBytes: 1 << 20 })).resolves.toMatchObject({ bytes: 5000 });
  });

  it.each([
    ["a form without the field", form([{ name: "other", filename: "x", content: "y" }])],
    ["a body cut inside the file", form([{ name: "file", filename: "x", content: "abcdef" }]).slice(0, -BOUNDARY.length - 8)],
    ["a body that is not a form", "just some text"],
    ["endless part headers", `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; x="${"y".repeat(20_000)}"`],
  ])("refuses %s as a field error naming the file", async (_, body) => {
    await expect(read(body, 64)).rejects.toMatchObject({ reason: "invalid_field", param: "file" });
  });

  it("refuses a body that is not multipart/form-data", async () => {
    const file = readMultipartFile(stream("{}", 2), "application/json", { field: "file", maxFileBytes: 10, maxBodyBytes: 10 });
    await expect(file.chunks[Symbol.asyncIterator]().next()).rejects.toMatchObject({ reason: "invalid_field" });
  });
});

describe("multipartBoundary", () => {
  it.each([
    [TYPE, BOUNDARY],
    [`Multipart/Form-Data; charset=utf-8; boundary="quoted boundary"`, "quoted boundary"],
    ["multipart/form-data", null],
    ["multipart/mixed; boundary=abc", null],
    [null, null],
  ])("%s -> %s", (type, boundary) => {
    expect(multipartBoundary(type)).toBe(boundary);
  });
});

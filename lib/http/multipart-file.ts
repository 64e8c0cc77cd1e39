import "server-only";
import { DomainError } from "@/lib/errors";

// One file field of a multipart/form-data body, read as it arrives: `Request.formData()` would hold
// the whole body, and a body sent without a Content-Length has no size to refuse it by beforehand.

export interface MultipartFileOptions {
  /** The form field that carries the file. */
  field: string;
  /** The most bytes the file may have; past it the body is refused with 413 `body_too_large`. */
  maxFileBytes: number;
  /** The most bytes the whole body may have (the file, the other fields and the framing). */
  maxBodyBytes: number;
}

export interface MultipartFile {
  /** The file's bytes; iterate once. Throws `body_too_large` past a limit, `invalid_field` on a body that is not such a form. */
  chunks: AsyncIterable<Uint8Array>;
  /** The file name the form gave, once `chunks` has begun; "" when it gave none. */
  readonly filename: string;
  /** The file's size so far (all of it once `chunks` is done). */
  readonly bytes: number;
}

const MAX_PART_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary a multipart/form-data Content-Type names, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || contentType.split(";")[0]!.trim().toLowerCase() !== "multipart/form-data") return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

/**
 * Reads the part named `field` out of a multipart/form-data body as a stream: memory holds one
 * chunk and a boundary's length more, never the body. Parts before it are skipped, parts after
 * it are not read.
 */
export function readMultipartFile(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | null,
  { field, maxFileBytes, maxBodyBytes }: MultipartFileOptions,
): MultipartFile {
  const notAForm = () => new DomainError("invalid_field", { message: `${field} must be a file sent as multipart/form-data` }, field);
  const tooLarge = () => new DomainError("body_too_large", { maxBytes: maxFileBytes });
  const state = { filename: "", bytes: 0 };

  async function* chunks(): AsyncGenerator<Uint8Array> {
    const boundary = multipartBoundary(contentType);
    if (!body || !boundary) throw notAForm();
    // Every delimiter but the first follows a line break; starting the body with one makes them all alike.
    const delimiter = Buffer.from(`\r\n--${boundary}`);
    const reader = body.getReader();
    let buffer: Buffer = Buffer.from(CRLF);
    let read = 0;
    let ended = false;
    const more = async (): Promise<boolean> => {
      if (ended) return false;
      const { done, value } = await reader.read();
      if (done) return !(ended = true);
      read += value.byteLength;
      if (read > maxBodyBytes) throw tooLarge();
      buffer = buffer.length === 0 ? Buffer.from(value) : Buffer.concat([buffer, value]);
      return true;
    };
    /** Drops everything up to and including the next delimiter; false when the body ends first. */
    const skipPastDelimiter = async (): Promise<boolean> => {
      for (;;) {
        const at = buffer.indexOf(delimiter);
        if (at >= 0) {
          buffer = buffer.subarray(at + delimiter.length);
          return true;
        }
        buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length + 1));
        if (!(await more())) return false;
      }
    };

    try {
      if (!(await skipPastDelimiter())) throw notAForm();
      for (;;) {
        // After a delimiter: "--" ends the body, else a line break and the part's headers.
        while (buffer.length < 2) if (!(await more())) throw notAForm();
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) throw notAForm();
        let headerEnd = buffer.indexOf(HEADER_END);
        while (headerEnd < 0) {
          if (buffer.length > MAX_PART_HEADER_BYTES || !(await more())) throw notAForm();
          headerEnd = buffer.indexOf(HEADER_END);
        }
        const disposition = partDisposition(buffer.subarray(0, headerEnd).toString("utf8"));
        buffer = buffer.subarray(headerEnd + HEADER_END.length);
        if (disposition.name !== field) {
          if (!(await skipPastDelimiter())) throw notAForm();
          continue;
        }
        state.filename = disposition.filename ?? "";
        for (;;) {
          const at = buffer.indexOf(delimiter);
          // Short of a delimiter, all but its length less one byte is surely the file's.
          const safe = at >= 0 ? at : Math.max(0, buffer.length - delimiter.length + 1);
          if (safe > 0) {
            state.bytes += safe;
            if (state.bytes > maxFileBytes) throw tooLarge();
            yield buffer.subarray(0, safe);
            buffer = buffer.subarray(safe);
          }
          if (at >= 0) return;
          if (!(await more())) throw notAForm();
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }

  return {
    chunks: chunks(),
    get filename() {
      return state.filename;
    },
    get bytes() {
      return state.bytes;
    },
  };
}

/** `form-data; name="file"; filename="x.json"` from a part's headers. */
function partDisposition(headers: string): { name?: string; filename?: string } {
  const line = headers.split("\r\n").find((h) => /^content-disposition\s*:/i.test(h));
  if (!line) return {};
  const quoted = (key: string) => new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(line)?.[1]?.replace(/\\(.)/g, "$1");
  return { name: quoted("name"), filename: quoted("filename") };
}

import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  parsed: ParsedMail;
  envelopeTo: string[];
  /** The user the client logged in as, when it did. */
  user: string | null;
}

/** What to answer a message: accept it, or refuse it with an SMTP reply code. */
export type SmtpAnswer = { accept: true } | { accept: false; code: number; message: string };

export interface SmtpSink {
  /** `smtp://user:secret@127.0.0.1:PORT`, ready for SMTP_URL or smtpTransport. */
  url: string;
  received: ReceivedMail[];
  /** Messages the sink refused, counted like attempts. */
  refused: number;
  /** Decides the answer to the n-th message (0-based, refused ones included). */
  answer(decide: (n: number) => SmtpAnswer): void;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (plain, login accepted for any password), that parses what arrives. */
export async function startSmtpSink(): Promise<SmtpSink> {
  let decide: (n: number) => SmtpAnswer = () => ({ accept: true });
  let seen = 0;
  const sink: SmtpSink = {
    url: "",
    received: [],
    refused: 0,
    answer: (d) => {
      decide = d;
      seen = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session: SMTPServerSession, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const verdict = decide(seen++);
          if (!verdict.accept) {
            sink.refused++;
            const err = Object.assign(new Error(verdict.message), { responseCode: verdict.code });
            return callback(err);
          }
          sink.received.push({
            parsed,
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === "string" ? session.user : null,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://giftkey:secret@127.0.0.1:${port}`;
  return sink;
}

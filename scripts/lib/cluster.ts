// A cluster primary: N copies of one server script sharing one listening port, kept running.
import cluster, { type Worker } from "node:cluster";
import os from "node:os";

export interface ClusterOptions {
  workers: number;
  /** The script each worker runs (Next's CLI, or a standalone build's server.js) and its arguments. */
  exec: string;
  args: string[];
  /** Node's own flags for every worker (server-cluster.ts: the heap limit). */
  execArgv?: string[];
  /** Added to this process's environment for every worker. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** After a stop signal, workers still running this much later are killed. */
  shutdownTimeoutMs: number;
  log?: (line: string) => void;
}

export interface Cluster {
  /** Resolves once every worker listens; rejects if one exits before they all first did. */
  ready: Promise<void>;
  /** Resolves with the process's exit code once every worker has exited after `kill`, or after a failed start. */
  exited: Promise<number>;
  /**
   * SIGTERM, SIGINT or SIGHUP: stop restarting and let each worker finish its requests in flight
   * and stop (SIGHUP is passed on as SIGTERM: a Next server would die of it mid-request).
   * SIGKILL: end every worker now.
   */
  kill(signal: NodeJS.Signals): void;
  pids(): number[];
}

/** A worker that lived this long before it died starts its backoff again from the shortest delay. */
const STABLE_AFTER_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * Forks `workers` processes running `exec`. Their servers listen on the same port: Node's cluster
 * module keeps the socket in this process and hands connections to the workers in turn. A worker
 * that crashes once the cluster has served is replaced after a delay that doubles while it keeps
 * crashing; one that exits before the cluster was first ready fails the start (a taken port or a bad
 * setting would only crash again). Node allows one cluster per process.
 */
export function startCluster(options: ClusterOptions): Cluster {
  const log = options.log ?? ((line: string) => console.log(line));
  // Not the launcher's execArgv: it may run under tsx's loader, which the server does not need.
  cluster.setupPrimary({ exec: options.exec, args: options.args, cwd: options.cwd, execArgv: options.execArgv ?? [] });

  const slots = Array.from({ length: options.workers }, (_, index) => ({
    index,
    worker: null as Worker | null,
    listening: false,
    startedAt: 0,
    failures: 0,
    restart: null as NodeJS.Timeout | null,
  }));
  type Slot = (typeof slots)[number];
  let everReady = false;
  let stopSignal: NodeJS.Signals | null = null;
  let failedStart = false;
  let forceKill: NodeJS.Timeout | null = null;

  let markReady!: () => void;
  let failReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // `exited` reports a failed start; nobody has to await `ready` for that.
  ready.catch(() => {});
  let finish!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (finish = resolve));

  const running = () => slots.filter((s) => s.worker !== null);
  const settleIfDone = () => {
    if (running().length > 0 || (!stopSignal && !failedStart)) return;
    if (forceKill) clearTimeout(forceKill);
    finish(failedStart ? 1 : 128 + (os.constants.signals[stopSignal!] ?? 15));
  };

  const fork = (slot: Slot) => {
    slot.restart = null;
    slot.startedAt = Date.now();
    const worker = cluster.fork(options.env);
    slot.worker = worker;
    slot.listening = false;
    worker.once("listening", () => {
      slot.listening = true;
      if (everReady || slots.some((s) => !s.listening)) return;
      everReady = true;
      markReady();
    });
    worker.once("exit", (code, signal) => {
      slot.worker = null;
      slot.listening = false;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (stopSignal || failedStart) return settleIfDone();
      if (!everReady) {
        log(`Server process ${slot.index + 1} (pid ${worker.process.pid}) exited with ${how} before the server was ready; stopping.`);
        failedStart = true;
        failReady(new Error(`a server process exited with ${how} during start`));
        for (const s of running()) s.worker!.process.kill("SIGTERM");
        return settleIfDone();
      }
      slot.failures = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.failures + 1;
      const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.failures - 1));
      log(
        `Server process ${slot.index + 1} (pid ${worker.process.pid}) exited with ${how}; starting another in ${(delay / 1000).toFixed(1)} s.`,
      );
      // A stop signal that reached the whole process group (Ctrl-C) may land here first; the delay
      // leaves time for it to reach this process too, and a stop cancels the restart.
      slot.restart = setTimeout(() => fork(slot), delay);
    });
  };
  for (const slot of slots) fork(slot);

  return {
    ready,
    exited,
    kill(signal) {
      if (signal === "SIGKILL") {
        stopSignal ??= "SIGKILL";
        for (const s of slots) if (s.restart) clearTimeout(s.restart);
        for (const s of running()) s.worker!.process.kill("SIGKILL");
        return settleIfDone();
      }
      if (stopSignal) return;
      stopSignal = signal;
      for (const s of slots) if (s.restart) clearTimeout(s.restart);
      for (const s of running()) s.worker!.process.kill(signal === "SIGHUP" ? "SIGTERM" : signal);
      forceKill = setTimeout(() => {
        const left = running();
        if (left.length === 0) return;
        log(`${left.length} server process(es) still busy ${options.shutdownTimeoutMs / 1000} s after ${signal}; killing them.`);
        for (const s of left) s.worker!.process.kill("SIGKILL");
      }, options.shutdownTimeoutMs);
      settleIfDone();
    },
    pids: () => running().map((s) => s.worker!.process.pid!),
  };
}

import "server-only";
import { asError, log } from "@/lib/log";

export interface BackgroundJob {
  name: string;
  /** Pause between passes when the last one found nothing more to do. */
  intervalMs: number;
  /**
   * One pass. Returning true asks for the next pass at once (more work is waiting). `wake` starts
   * the next pass early from outside a pass, e.g. when capacity frees up.
   */
  run(wake: () => void): Promise<boolean | void>;
  /** Waits for work a pass started and did not finish; called once on stop, after the last pass. */
  drain?(): Promise<void>;
}

/**
 * Runs registered jobs in this process, each in its own loop so a slow one never delays another.
 * A failing pass is logged and retried at the next interval. `stop()` lets each loop finish the
 * pass in hand, starts no new one, then waits for the jobs' in-flight work.
 */
export class BackgroundRunner {
  private readonly jobs: BackgroundJob[] = [];
  private readonly loops: Promise<void>[] = [];
  private readonly wakers = new Map<string, () => void>();
  private stopping: Promise<void> | null = null;
  private started = false;

  register(job: BackgroundJob): this {
    if (this.started) throw new Error(`register ${job.name} before the runner starts`);
    if (this.jobs.some((j) => j.name === job.name)) throw new Error(`a job named ${job.name} is already registered`);
    this.jobs.push(job);
    return this;
  }

  get jobNames(): string[] {
    return this.jobs.map((j) => j.name);
  }

  start(): this {
    if (this.started) return this;
    this.started = true;
    for (const job of this.jobs) this.loops.push(this.loop(job));
    return this;
  }

  /** Starts the job's next pass now instead of after its interval. */
  wake(name: string): void {
    this.wakers.get(name)?.();
  }

  /** Stops claiming new work and resolves when every pass and in-flight attempt has finished. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const wake of this.wakers.values()) wake();
      await Promise.all(this.loops);
      await Promise.all(this.jobs.map((j) => j.drain?.().catch((err) => logFailure(j.name, err))));
    })();
    return this.stopping;
  }

  get isStopping(): boolean {
    return this.stopping !== null;
  }

  private async loop(job: BackgroundJob): Promise<void> {
    let wokenEarly = false;
    const wake = () => {
      wokenEarly = true;
      this.wakers.get(job.name)?.();
    };
    while (!this.stopping) {
      wokenEarly = false;
      let again = false;
      try {
        again = (await job.run(wake)) === true;
      } catch (err) {
        logFailure(job.name, err);
      }
      if (this.stopping) break;
      if (again || wokenEarly) continue;
      await new Promise<void>((resolve) => {
        // Never the reason a process stays up: the server or the test decides that.
        const timer = setTimeout(done, job.intervalMs).unref();
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakers.set(job.name, done);
      });
      this.wakers.delete(job.name);
    }
  }
}

function logFailure(name: string, err: unknown): void {
  log.error({ area: "worker", job: name, err: asError(err) }, `background job ${name} failed`);
}

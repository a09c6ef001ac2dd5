/**
 * The CPU a measured period cost, by process: the server the load went to
 * (the service or the ceiling, all its threads) and the PostgreSQL server
 * (every process named `postgres`: its backends, WAL writer, checkpointer),
 * read from /proc before and after the period. Divided by the requests the
 * period completed, it says what one request cost each side: a rate
 * follows whatever else runs on a shared 2-core machine in those seconds,
 * a cost per request much less.
 *
 * Linux only; elsewhere nothing is read and nothing is reported.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time used so far, in clock ticks, by pid. */
type Ticks = Map<number, number>;

export interface CpuSnapshot {
  server: number | undefined;
  postgres: Ticks;
}

/** What a period cost, in ms of CPU. */
export interface CpuUse {
  serverMs: number;
  postgresMs: number;
}

/** Clock ticks a second: 100 on every Linux the bench runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process (all its threads), or undefined when it is gone. */
function ticksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command in parentheses may hold spaces: the fields follow its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

function postgresTicks(): Ticks {
  const ticks: Ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const used = ticksOf(pid);
    if (used !== undefined) ticks.set(pid, used);
  }
  return ticks;
}

/** Undefined where /proc cannot be read (not Linux). */
export function cpuSnapshot(serverPid: number | undefined): CpuSnapshot | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return {
      server: serverPid === undefined ? undefined : ticksOf(serverPid),
      postgres: postgresTicks(),
    };
  } catch {
    return undefined;
  }
}

/**
 * The CPU used between two snapshots. A PostgreSQL process that started in
 * between counts whole; one that ended in between loses what it used since
 * the first (the pools' connections stay open through a period, so that is
 * a connection or two of the bench's own checks at most).
 */
export function cpuBetween(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
): CpuUse | undefined {
  // No server read (its pid unknown, or it was gone): nothing to report rather than a 0.
  if (before?.server === undefined || after?.server === undefined) return undefined;
  let postgres = 0;
  for (const [pid, used] of after.postgres) postgres += used - (before.postgres.get(pid) ?? 0);
  const ms = 1000 / TICKS_PER_SECOND;
  return { serverMs: (after.server - before.server) * ms, postgresMs: postgres * ms };
}

interface Side {
  completed: number;
  startedAtMs: number;
  cpu?: CpuUse;
}

/** Whether two summaries are of one load (compared by value: results may come back from JSON). */
function sameLoad(a: Side, b: Side | undefined): boolean {
  return b !== undefined && a.startedAtMs === b.startedAtMs && a.completed === b.completed;
}

function perRequest(side: Side): { server: number; postgres: number } | undefined {
  if (!side.cpu || side.completed === 0) return undefined;
  return {
    server: side.cpu.serverMs / side.completed,
    postgres: side.cpu.postgresMs / side.completed,
  };
}

/**
 * One line per row whose loads carry their CPU: what a request cost the
 * server and PostgreSQL on the service's side and on the side its ratio is
 * taken against (its own ceiling, or another row's load), and the two
 * totals in the ratio's sense (the other side's over the service's: above
 * 1, the service costs less a request). A row without a ratio compares
 * with its ceiling, when it has one.
 */
export function cpuLines(
  rows: Array<{
    id: string;
    service?: Side;
    ceiling?: Side;
    ceilingLabel?: string;
    ratioAgainst?: Side;
    ratioOf?: string;
  }>,
): string[] {
  const lines: string[] = [];
  const ms = (value: number) => value.toFixed(2);
  for (const row of rows) {
    const service = row.service && perRequest(row.service);
    if (!service) continue;
    const serviceTotal = service.server + service.postgres;
    let line =
      `- ${row.id} CPU a request: service ${ms(service.server)} ms + PostgreSQL ` +
      `${ms(service.postgres)} ms = ${ms(serviceTotal)} ms`;
    const against = row.ratioAgainst ?? row.ceiling;
    const other = against && perRequest(against);
    if (other) {
      const otherTotal = other.server + other.postgres;
      const ownCeiling = !row.ratioAgainst || sameLoad(row.ratioAgainst, row.ceiling);
      const label = ownCeiling ? (row.ceilingLabel ?? 'ceiling') : (row.ratioOf ?? 'ceiling');
      line +=
        `; ${label} ${ms(other.server)} + ${ms(other.postgres)} = ` +
        `${ms(otherTotal)} ms; by cost ${(otherTotal / serviceTotal).toFixed(2)}`;
    }
    lines.push(line);
  }
  return lines;
}

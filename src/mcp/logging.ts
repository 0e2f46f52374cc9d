import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/server';

/** RFC 5424 severities as MCP names them, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LOGGER = 'pincher-edge';

function isLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** The parts of a request handler's context the lane reads and writes through. */
export interface LaneRequest {
  _meta?: Record<string, unknown>;
  envelope?: Record<string, unknown>;
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
}

/**
 * The MCP logging and progress lane of one request: `notifications/message`
 * and `notifications/progress` ride the request's own response stream.
 *
 * The server keeps no session, so the threshold is the request's own: the
 * `io.modelcontextprotocol/logLevel` key of its `_meta` (the 2026-07-28
 * revision's per-request level, honoured on 2025-era requests too). Without
 * it a 2025-era request receives `info` and above, and a 2026-07-28 request
 * receives no log messages (that revision sends them only when asked).
 * Progress is sent only when the request carries `_meta.progressToken`.
 */
export class McpLane {
  private readonly threshold: number | undefined;
  private readonly progressToken: string | number | undefined;
  private sent = -1;

  constructor(
    private readonly req: LaneRequest,
    modern: boolean,
  ) {
    const asked = req.envelope?.[LOG_LEVEL_META_KEY] ?? req._meta?.[LOG_LEVEL_META_KEY];
    const level: LogLevel | undefined = isLevel(asked) ? asked : modern ? undefined : 'info';
    this.threshold = level === undefined ? undefined : LOG_LEVELS.indexOf(level);
    const token = req.envelope?.progressToken ?? req._meta?.progressToken;
    this.progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /** Sends one log message when its level reaches the request's threshold; never fails the call. */
  async log(level: LogLevel, data: Record<string, unknown>): Promise<void> {
    if (this.threshold === undefined || LOG_LEVELS.indexOf(level) < this.threshold) return;
    await this.deliver({ method: 'notifications/message', params: { level, logger: LOGGER, data } });
  }

  /** Reports progress on the request's token (strictly increasing `progress`), when it carries one. */
  async progress(progress: number, total: number, message: string): Promise<void> {
    if (this.progressToken === undefined || progress <= this.sent) return;
    this.sent = progress;
    await this.deliver({ method: 'notifications/progress', params: { progressToken: this.progressToken, progress, total, message } });
  }

  private async deliver(notification: { method: string; params: Record<string, unknown> }): Promise<void> {
    try {
      await this.req.notify(notification);
    } catch (err) {
      console.error(`mcp ${notification.method}: ${err instanceof Error ? err.message.slice(0, 200) : 'send failed'}`);
    }
  }
}

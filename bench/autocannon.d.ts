/** The part of autocannon's programmatic API the load generator uses (the package has no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface RequestData {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }

    interface Request extends RequestData {
      setupRequest?: (req: RequestData, context: object) => RequestData;
      onResponse?: (
        status: number,
        body: string,
        context: object,
        headers: Record<string, string>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      requests?: Request[];
    }

    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      start: Date;
      finish: Date;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): unknown;

  export = autocannon;
}

// Just enough of autocannon's API for the bench runner (the package ships no types).
declare module 'autocannon' {
  interface Client {
    on(event: 'response', listener: (statusCode: number, bytes: number, responseTime: number) => void): void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    requests?: Array<{
      method?: string;
      path?: string;
      /** Called before each request is sent; what it returns is sent. */
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
    }>;
    setupClient?: (client: Client) => void;
  }
  interface Result {
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}

/** Where the API layer writes what it does. The extension passes its LogOutputChannel (which redacts keys). */
export interface ApiLogger {
  trace?(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: ApiLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

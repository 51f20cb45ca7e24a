// Where the RPC transport answers: its prefix, and whether a request path is one of its.
export const RPC_PREFIX = "/api/rpc";

export function isRpcPath(path: string): boolean {
  return path === RPC_PREFIX || path.startsWith(`${RPC_PREFIX}/`);
}

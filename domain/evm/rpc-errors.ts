// JSON-RPC error codes a node answers when it does not serve a request as asked (pure: the index and the host share it).

/** The node has no such method (-32601) or refused its parameters (-32602): ask it otherwise, not again. */
export function refusedByNode(error: unknown): boolean {
  const code = (error as { code?: number } | undefined)?.code;
  return code === -32601 || code === -32602;
}

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, ErrorCode as JsonRpcErrorCode, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { describeInputProblem, findInputProblem } from './input-hygiene.js';

/** The body of a refused tool call in the server's own error shape (e.g. `{error, code}`, `{message, code}`), which may depend on the tool. */
export type ToolErrorBody = (message: string, toolName: string | undefined) => Record<string, unknown>;

function refusedToolCall(body: Record<string, unknown>, structured: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], ...(structured ? { structuredContent: body } : {}), isError: true };
}

/** Whether a tool's refusal (a 400) may be structured content: not where the tool's outputSchema would not admit it (MCP clients validate it). */
export type StructuredRefusal = (toolName: string | undefined) => boolean;

/**
 * Connects an MCP server to its transport with the platform's input rule (platform/input-hygiene.ts)
 * in front of the SDK's dispatch, whatever the transport (Streamable HTTP, stdio).
 * 1. Every message's params are checked before any handler sees them: a tool's arguments, the
 *    client's info, a resource's URI.
 * 2. A tools/call whose arguments fail is answered as our tools answer their errors, a tool result
 *    with isError and the server's error body naming the field (the model reads it and can retry);
 *    any other request is answered JSON-RPC Invalid params (-32602); a notification is dropped.
 * 3. Nothing refused reaches a tool, so no refused call charges, writes or queries anything.
 */
export async function connectWithInputRule(server: McpServer, transport: Transport, toolErrorBody: ToolErrorBody, structuredRefusal: StructuredRefusal = () => true): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
    const problem = 'params' in message ? findInputProblem(message.params, 'params') : undefined;
    if (!problem) return deliver?.(message, extra);
    if (!('id' in message) || !('method' in message)) return undefined;
    const description = describeInputProblem(problem);
    const inArguments = message.method === 'tools/call' && problem.field.startsWith('params.arguments');
    const toolName = typeof message.params?.name === 'string' ? message.params.name : undefined;
    const answer: JSONRPCMessage = inArguments
      ? { jsonrpc: '2.0', id: message.id, result: refusedToolCall(toolErrorBody(`Invalid arguments: ${description.replace(/^params\.arguments(\.|: )/, '')}`, toolName), structuredRefusal(toolName)) }
      : { jsonrpc: '2.0', id: message.id, error: { code: JsonRpcErrorCode.InvalidParams, message: `Invalid params: ${description}` } };
    void transport.send(answer, { relatedRequestId: message.id }).catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
    return undefined;
  };
}

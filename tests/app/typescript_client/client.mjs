// One session of the official MCP TypeScript SDK against graphmem; prints one JSON object
// for tests/app/test_typescript_sdk_client.py to assert on (the test, not this script, judges).
//
//   node client.mjs '{"sdk": "v2"|"v1", "mode": "auto"|"legacy", "url": URL}'
//   node client.mjs '{"sdk": ..., "mode": ..., "command": [...], "stderr": PATH}'  (stdio)
//
// sdk "v2" is @modelcontextprotocol/client (TS SDK v2: 2026-07-28 via server/discover in mode
// "auto", the 2025 initialize handshake in mode "legacy"); "v1" is @modelcontextprotocol/sdk
// 1.x, which speaks 2025-11-25 at most. The child's environment is this process's: the test
// sets it (Neo4j, tenant, toolset).
import fs from 'node:fs';

const config = JSON.parse(process.argv[2]);
const V1 = config.sdk === 'v1';

async function connect() {
  const sdk = V1
    ? await import('@modelcontextprotocol/sdk/client/index.js')
    : await import('@modelcontextprotocol/client');
  const options = V1 ? {} : { versionNegotiation: { mode: config.mode } };
  const client = new sdk.Client({ name: 'graphmem-ts-test', version: '1' }, options);
  await client.connect(tapped(await transport(sdk)));
  return client;
}

// What went over the wire, whichever SDK: the methods sent, and the protocol version an
// initialize result named (v1 has no getter for it). The SDK sets onmessage when it connects.
const wire = { sent: [], initialized: null };

function tapped(transport) {
  const send = transport.send.bind(transport);
  transport.send = (message, ...rest) => {
    if (message.method) wire.sent.push(message.method);
    return send(message, ...rest);
  };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    get: () => handler,
    set: (inner) => {
      handler = (message, ...rest) => {
        wire.initialized ??= message.result?.protocolVersion ?? null;
        return inner?.(message, ...rest);
      };
    },
  });
  return transport;
}

async function transport(sdk) {
  if (config.url) {
    const http = V1 ? await import('@modelcontextprotocol/sdk/client/streamableHttp.js') : sdk;
    return new http.StreamableHTTPClientTransport(new URL(config.url));
  }
  const stdio = V1
    ? await import('@modelcontextprotocol/sdk/client/stdio.js')
    : await import('@modelcontextprotocol/client/stdio');
  const [command, ...args] = config.command;
  const stderr = fs.openSync(config.stderr, 'a'); // the server's log lines, not our stdout
  return new stdio.StdioClientTransport({ command, args, env: { ...process.env }, stderr });
}

// v1's callTool takes a result schema before the request options; v2's does not.
function callTool(client, name, args, options = {}) {
  const params = { name, arguments: args };
  return V1 ? client.callTool(params, undefined, options) : client.callTool(params, options);
}

function text(content) {
  return content?.type === 'text' ? content.text : '';
}

async function session(client) {
  const out = {};
  out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? wire.initialized;
  out.era = client.getProtocolEra?.() ?? null;
  const discovered = client.getDiscoverResult?.();
  out.discover = discovered
    ? { supportedVersions: discovered.supportedVersions, capabilities: discovered.capabilities }
    : null;
  out.serverName = client.getServerVersion()?.name ?? null;
  const listed = await client.listTools();
  out.tools = listed.tools.map((tool) => tool.name);
  out.toolsCache = { ttlMs: listed.ttlMs ?? null, cacheScope: listed.cacheScope ?? null };
  const written = await callTool(client, 'record_fact', { project: 'p', key: 'ts', value: 7 });
  out.written = { isError: written.isError ?? false, text: text(written.content?.[0]) };
  const read = await callTool(client, 'current_state', { state_key: 'ts', project: 'p' });
  out.read = { isError: read.isError ?? false, value: read.structuredContent?.answer?.value };
  const heard = [];
  const maintained = await callTool(client, 'maintain', {}, {
    onprogress: (progress) => heard.push(progress),
    resetTimeoutOnProgress: true,
  });
  out.maintain = { isError: maintained.isError ?? false, progress: heard };
  const stats = await client.readResource({ uri: 'graphmem://stats' });
  out.resource = stats.contents[0]?.text ?? '';
  const prompt = await client.getPrompt({
    name: 'start_session',
    arguments: { project: 'p', task: 'tune the db' },
  });
  out.prompt = text(prompt.messages[0]?.content);
  const completed = await client.complete({
    ref: { type: 'ref/prompt', name: 'start_session' },
    argument: { name: 'project', value: '' },
  });
  out.completion = completed.completion.values;
  out.sent = wire.sent;
  return out;
}

async function listOnly(client) {
  const listed = await client.listTools();
  return { tools: listed.tools.map((tool) => tool.name) };
}

let client;
try {
  client = await connect();
  const result = config.listOnly ? await listOnly(client) : await session(client);
  process.stdout.write(JSON.stringify(result) + '\n');
} catch (error) {
  process.stdout.write(JSON.stringify({ error: String(error?.stack ?? error) }) + '\n');
  process.exitCode = 1;
} finally {
  await client?.close().catch(() => {});
}

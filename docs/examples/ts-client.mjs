// A TypeScript/JavaScript MCP client of gatehouse, as docs/agents.md shows it.
// Run by hand: npm install @modelcontextprotocol/sdk, then
//   GATEHOUSE=/path/to/gatehouse WORKSPACE=/abs/workspace.yaml PROFILE=responder node ts-client.mjs
// (stdio: the SDK starts gatehouse mcp), or, with `gatehouse mcp -w FILE -p PROFILE --http 127.0.0.1:7879`
// running, `node ts-client.mjs http`.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const client = new Client({ name: "ts-agent", version: "1.0.0" });
if (process.argv[2] === "http") {
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:7879/mcp")));
} else {
  await client.connect(new StdioClientTransport({
    command: process.env.GATEHOUSE ?? "gatehouse",
    args: ["mcp", "-w", process.env.WORKSPACE, "-p", process.env.PROFILE ?? "responder"],
  }));
}
const { tools } = await client.listTools();
console.log(tools.map((t) => t.name).join(","));
const result = await client.callTool(
  { name: "bash", arguments: { command: process.argv[3] ?? "ls" } },
  undefined,
  { timeout: 600_000, resetTimeoutOnProgress: true }, // a human may take a while
);
console.log(result.content[0].text, JSON.stringify(result.structuredContent));
await client.close();

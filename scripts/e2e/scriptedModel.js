'use strict';
/**
 * A scripted, OpenAI-compatible chat model for the agent checks: no network, no keys.
 *
 *   const model = await startScriptedModel();          // listens on 127.0.0.1 only
 *   model.url                                          // http://127.0.0.1:<port>/v1 (the openAiApi Base URL)
 *   model.script('conv-get', {                         // the conversation whose user message contains 'conv-get'
 *     steps: [{ pick: (tool) => /Get_candidate/.test(tool.name), args: () => ({ candidateId: 'can_1' }) }],
 *     answer: ({ results }) => `Found ${results[0].json.full_name}`,
 *   });
 *   model.requests                                     // every chat request, recorded (see record())
 *
 * The conversation state lives in the request itself (n8n's agent sends the whole history each
 * turn), so the server is stateless: the number of tool results already in the messages says which
 * step comes next. A step picks one of the offered tools by a predicate over its name, description
 * and JSON schema and builds the arguments, possibly from earlier tool results; after the last step
 * the answer is a text built from what the tools returned. A step that matches no offered tool, or a
 * request that names no known conversation, is answered 400 (n8n shows it as the model's error) and
 * recorded in `model.problems`.
 *
 * Answers `POST /v1/chat/completions` as JSON or, with `stream: true`, as SSE chunks, and
 * `GET /v1/models`. Plain Node, built-ins only.
 */
const http = require('http');

const MODEL_ID = 'scripted-model';

/** A message's content as text (a string, or an array of content parts). */
function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : p.text || '')).join('');
	return content == null ? '' : JSON.stringify(content);
}

function parseJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The offered tools in a flat shape: { name, description, parameters } (OpenAI `tools` or legacy `functions`). */
function offeredTools(body) {
	const fromTools = (body.tools || []).filter((t) => t.type === 'function' && t.function).map((t) => t.function);
	const legacy = body.functions || [];
	return [...fromTools, ...legacy].map((f) => ({ name: f.name, description: f.description || '', parameters: f.parameters || {} }));
}

/** Tool calls the model made and the results n8n sent back, paired, in conversation order. */
function toolExchanges(messages) {
	const calls = new Map();
	for (const m of messages) {
		if (m.role === 'assistant') for (const c of m.tool_calls || []) calls.set(c.id, c);
	}
	return messages
		.filter((m) => m.role === 'tool' || m.role === 'function')
		.map((m) => {
			const call = calls.get(m.tool_call_id);
			const text = textOf(m.content);
			const args = call ? parseJson(call.function.arguments) : undefined;
			// n8n 2.x's agent echoes a call's arguments with the call's own id added: not the model's.
			if (args && args.id === m.tool_call_id) delete args.id;
			return {
				toolCallId: m.tool_call_id,
				name: call ? call.function.name : m.name,
				args,
				text,
				bytes: Buffer.byteLength(text, 'utf8'),
				json: parseJson(text),
			};
		});
}

function record(body) {
	const messages = body.messages || [];
	// A chat with memory repeats earlier turns: this turn starts at the last user message.
	const lastUser = messages.map((m) => m.role).lastIndexOf('user');
	return {
		at: new Date().toISOString(),
		model: body.model,
		stream: body.stream === true,
		tools: offeredTools(body),
		messages,
		user: messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n'),
		lastUser: lastUser >= 0 ? textOf(messages[lastUser].content) : '',
		system: messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n'),
		toolResults: toolExchanges(messages.slice(Math.max(lastUser, 0))),
	};
}

function completionId() {
	return `chatcmpl-${Math.random().toString(36).slice(2, 12)}`;
}

function usage(rec, reply) {
	const prompt = Math.ceil(JSON.stringify(rec.messages).length / 4);
	const completion = Math.ceil(JSON.stringify(reply).length / 4);
	return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function sendJson(res, status, body) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/** The reply as one chat.completion JSON. */
function sendCompletion(res, rec, reply) {
	const message = reply.toolCalls
		? { role: 'assistant', content: null, tool_calls: reply.toolCalls }
		: { role: 'assistant', content: reply.text };
	sendJson(res, 200, {
		id: completionId(),
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: rec.model || MODEL_ID,
		choices: [{ index: 0, message, logprobs: null, finish_reason: reply.toolCalls ? 'tool_calls' : 'stop' }],
		usage: usage(rec, reply),
	});
}

/** The reply as chat.completion.chunk SSE events, the way OpenAI streams it. */
function sendStream(res, rec, reply, includeUsage) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const id = completionId();
	const created = Math.floor(Date.now() / 1000);
	const chunk = (choices, extra = {}) =>
		res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: rec.model || MODEL_ID, choices, ...extra })}\n\n`);
	if (reply.toolCalls) {
		chunk([{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }]);
		reply.toolCalls.forEach((c, index) => {
			chunk([{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }, finish_reason: null }]);
			chunk([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: c.function.arguments } }] }, finish_reason: null }]);
		});
		chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
	} else {
		chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
		// Two pieces, so a client that only keeps the last chunk would be caught.
		const half = Math.ceil(reply.text.length / 2);
		for (const piece of [reply.text.slice(0, half), reply.text.slice(half)]) {
			if (piece) chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
		}
		chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
	}
	if (includeUsage) chunk([], { usage: usage(rec, reply) });
	res.write('data: [DONE]\n\n');
	res.end();
}

class ScriptError extends Error {}

/**
 * The next reply of a conversation: the tool call of the step after the results already given,
 * or the final answer.
 */
function nextReply(conversation, rec) {
	try {
		return scriptedReply(conversation, rec);
	} catch (e) {
		// A script that cannot go on (e.g. a tool result without what the next step needs) is a 400.
		throw e instanceof ScriptError ? e : new ScriptError(`scripted model, "${conversation.id}": ${e.message}`);
	}
}

function scriptedReply(conversation, rec) {
	const done = rec.toolResults.length;
	const ctx = { tools: rec.tools, results: rec.toolResults, request: rec };
	const step = conversation.steps[done];
	if (!step) return { text: String(conversation.answer(ctx)) };
	const tool = rec.tools.find((t) => step.pick(t));
	if (!tool) {
		throw new ScriptError(
			`scripted model: step ${done + 1} of "${conversation.id}" matches none of the offered tools: ${rec.tools.map((t) => t.name).join(', ') || '(none)'}`,
		);
	}
	const args = step.args ? step.args({ ...ctx, tool }) : {};
	return {
		toolCalls: [{ id: `call_${conversation.id.replace(/[^a-zA-Z0-9]/g, '')}_${done + 1}`, type: 'function', function: { name: tool.name, arguments: JSON.stringify(args) } }],
	};
}

/**
 * Starts the server. Returns { url, port, script(id, conversation), requests, problems,
 * requestsOf(id), clear(), close() }. `unscripted(rec)`, when given, answers a request that names
 * no scripted conversation: it returns a conversation ({ id, steps, answer }) built for that request
 * (the demo's assistant, assistantModel.js, reads what the user typed).
 */
async function startScriptedModel({ port = 0, unscripted } = {}) {
	const conversations = new Map();
	const requests = [];
	const problems = [];

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url, 'http://127.0.0.1');
			const route = url.pathname.replace(/\/+$/, '').replace(/^\/v1/, '');
			try {
				if (req.method === 'GET' && route === '/models') {
					sendJson(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'n8n-nodes-recruiting' }] });
					return;
				}
				if (req.method !== 'POST' || route !== '/chat/completions') {
					problems.push(`unexpected request ${req.method} ${req.url}`);
					sendJson(res, 404, { error: { message: `scripted model: no route ${req.method} ${url.pathname}`, type: 'invalid_request_error' } });
					return;
				}
				const body = parseJson(Buffer.concat(chunks).toString('utf8'));
				if (!body || !Array.isArray(body.messages)) throw new ScriptError('scripted model: the body is not a chat completion request');
				const rec = record(body);
				rec.authorization = req.headers.authorization;
				const conversation =
					[...conversations.values()].find((c) => rec.user.includes(c.id)) || (unscripted && unscripted(rec));
				rec.conversation = conversation && conversation.id;
				requests.push(rec);
				if (!conversation) throw new ScriptError(`scripted model: no scripted conversation named in: ${rec.user.slice(0, 200)}`);
				const reply = nextReply(conversation, rec);
				rec.reply = reply;
				if (body.stream === true) sendStream(res, rec, reply, body.stream_options && body.stream_options.include_usage);
				else sendCompletion(res, rec, reply);
			} catch (e) {
				problems.push(e.message);
				// 400: the OpenAI client does not retry it, so a script error fails the run at once.
				sendJson(res, e instanceof ScriptError ? 400 : 500, { error: { message: e.message, type: 'invalid_request_error' } });
			}
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const actualPort = server.address().port;
	return {
		url: `http://127.0.0.1:${actualPort}/v1`,
		port: actualPort,
		requests,
		problems,
		/**
		 * Registers a conversation, recognised by `id` appearing in the user's message.
		 * steps: [{ pick(tool) -> boolean, args({ tool, tools, results, request }) -> object }]
		 * answer({ tools, results, request }) -> string; results: [{ name, args, text, bytes, json }].
		 */
		script(id, { steps = [], answer }) {
			conversations.set(id, { id, steps, answer: answer || (() => 'Done.') });
		},
		/** The recorded requests of one conversation. */
		requestsOf(id) {
			return requests.filter((r) => r.conversation === id);
		},
		clear() {
			requests.length = 0;
			problems.length = 0;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startScriptedModel, MODEL_ID };

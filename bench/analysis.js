'use strict';
/**
 * The hand-written part of BENCHMARKS.md: where the time goes. Figures marked "profile" come from
 * CPU profiles of n8n's main process over one execution (via the inspector; `npm run bench --
 * --profile` now takes them) taken during development on the same machine while it was busy
 * (load 2–4), so read them as proportions, not as absolute times.
 */
module.exports.ANALYSIS = `## Where the time goes, and what was changed

Profiles: \`npm run bench -- --profile\` (with any other options, e.g. \`--only B4 --runs 1\`) runs n8n's
main process under Node's \`--cpu-prof\` and writes one \`.cpuprofile\` per n8n it started into
\`build/profiles/\` when that n8n shuts down; open one in Chrome DevTools (Performance → Load profile)
or with \`npx speedscope <file>\`. The figures below came from an earlier script that profiled one
execution at a time through n8n's inspector (200 µs sampling).

### Changes to the node (all in \`nodes/shared/transport.ts\` and \`nodes/Recruiting/actions/router.ts\`)

1. **Request Options → Concurrency** (new option, 1–10, default 1). Return All fetches page 1 alone;
   once it tells \`total_pages\`, the remaining pages are requested up to *Concurrency* at a time, in
   page order, and checked and collected strictly in page order with the same guards as before
   (repeated ids, an empty page claiming a successor is fetched once more, a next page beyond
   \`total_pages\`, a list ending short of \`total_items\`). After the first failure no new page is
   requested, the pages in flight are awaited, and the earliest failing page's error is thrown.
   Input items run with the same bound (a small worker pool over the item indexes); output order,
   \`pairedItem\` and Continue On Fail are those of a one-by-one run; without Continue On Fail the
   lowest failing item's error is thrown and no item starts after a failure. The default stays 1:
   the existing tests pin the one-after-another request sequence (e.g. exactly three requests
   when page 2 repeats), and a third-party API's rate limits are the user's call.
2. **The credential is read once per node run**, not once per request: the transport kept calling
   \`getCredentials\` (decrypt: HKDF + AES) for the base URL and then n8n's helper decrypted it again
   for every request. Now one read per execution context (a WeakMap keyed by the context) is
   handed to \`httpRequestWithAuthentication\` as \`credentialsDecrypted\` (a documented
   \`IAdditionalCredentialOptions\` field). Profile before: ~400 decrypts for 200 pages.
3. **Request Options are read once per node run** unless an option is an expression. Each
   \`getNodeParameter\` builds an expression context (Luxon \`DateTime.now()\`, data proxy); it ran for
   every page and every item.
4. **Output items are built in one pass** (\`{ json, pairedItem }\`) instead of
   \`returnJsonArray\` + \`constructExecutionMetaData\` + \`push(...spread)\`: two fewer 20,000-element
   intermediate arrays and no spread of 20,000 arguments (which would hit the call-stack limit at a
   few hundred thousand items). Same output shape.

### B1 — why "≥ 3× faster than the HTTP Request node" is not reachable here

- Every request goes through n8n's helper, and the community-node rules require it. Per request
  that helper builds **new \`http.Agent\`s** (\`@n8n/backend-network\` \`buildNodeAgents\`), so every
  page is a new TCP connection (the connection column: 200 for 200 requests, for both n8n paths;
  the bare loop reuses 1–4 keep-alive connections), resolves the credential's \`authenticate\`
  **expression** (\`=Bearer {{$credentials.accessToken}}\`) through the expression engine
  (profile: ~0.5–0.7 ms per request, 110–140 ms for 200 pages), and runs axios +
  follow-redirects. Axios's \`JSON.parse\` of a 205 KB page is the largest single item
  (profile: ~330 ms for 200 pages). All of it runs on n8n's one main thread, which on this
  2-core machine shares the CPU with the sandbox producing the pages.
- So the floor of any node inside n8n is roughly 200 × (parse + helper) of CPU, and the HTTP
  Request node pays the same floor plus its per-page pagination expressions and Split Out. Page
  concurrency hides the sandbox's time and the network waits (which is what the bare "4 in flight"
  loop shows), not n8n's CPU. The remaining ratio to the HTTP Request node is therefore about
  what the tables show, not 3×; "within 1.25× of the bare serial loop" is the realistic bar, and
  it is reached only with page concurrency.
- How close that is to the floor, measured separately (load 0.3, sandbox alone, 200 pages, median
  of 3): the sandbox produces the pages in ~0.42 s with 4 in flight when the client only reads
  the bytes (~0.6 s one by one); a client that also \`JSON.parse\`s them needs ~0.57–0.71 s with 4 in
  flight. Being 3× faster than the HTTP Request path means ≤ ~0.68 s (see "For scale" above),
  which leaves next to nothing for n8n's per-request work (a TCP handshake, axios, the
  \`authenticate\` expression: roughly 1 ms per page, ~0.2 s for 200). Our own code in the loop
  (page checks, id set, collecting) is ~36 ms of CPU for 200 pages in the profile.
- Fewer requests are impossible (100 is the service's largest page size) and the number of
  requests is exactly ⌈N/100⌉ in every variant.
- Possible next steps outside this package's files: the credential's \`authenticate\` as a function
  instead of an expression would remove the per-request expression evaluation (n8n calls a
  function directly); n8n reusing one keep-alive agent per host would remove a TCP handshake per
  request.

### Memory and execution-data saving

- With saving on, n8n serialises the whole run (\`flatted\`) and writes it to sqlite after
  \`stoppedAt\`: profile ~2.2 s of CPU for our 20,000 items, more than the Return All itself, and
  the peak RSS of the run is reached there. The HTTP Request path stores the 200 page envelopes and
  Split Out's 20,000 items; Split Out copies each application only shallowly (\`{ ...element }\`),
  so the nested objects are shared and \`flatted\` writes them once. Its saved data is therefore
  only moderately larger than ours, and the peak-RSS ratio with saving on stays near 0.9: what
  dominates is the 20,000 applications themselves, which every path has to hold and save. With
  saving off the peak is the run itself, where the HTTP path holds the envelopes *and* the split
  copies: there our node needs clearly less.
- The target compares *peaks*, and both peaks contain n8n's own resident memory (~400 MB right
  after start-up, the "RSS before" column of the fresh table). For our peak to be ≤ 0.8× of the
  HTTP path's, our run could add only 0.8 × (HTTP peak) − (our baseline) on top of that — with
  saving off about 80 MB — while the 20,000 parsed applications (205 KB of JSON per 100) alone
  take more than that as JavaScript objects, and every path has to hold them as its output.
  The growth during the run (peak − before) is the fairer comparison of what each path costs;
  it is listed under Targets for reference.
- In a long-lived n8n the peak RSS of a run is dominated by the heap earlier runs left behind
  (see "RSS before"), so the RSS target is judged on a fresh n8n per variant, measured after n8n's
  own start-up memory has been given back (its RSS falls by ~40 % some 10 s after start).

### B2 — per-item cost

- Both nodes make one request per item through the same helper (one TCP connection each). The
  HTTP Request node already sends all items' requests at once; its cost is per-item parameter
  resolution (dozens of parameters and options per item) and response handling. Ours resolves one
  expression (\`Candidate ID\`) per item (profile: ~0.2 ms each), the credential's \`authenticate\`
  expression in n8n's helper (~0.1 ms), and the request itself. Concurrency 4 overlaps the network
  waits; the CPU on n8n's main thread is the limit after that.

### B4 — trigger vs Webhook node

- Profile of 200 deliveries from 8 senders (to the trigger, and to a plain Webhook node), before
  issue #12: the trigger's own \`webhook()\` took ~0.29 ms of CPU per delivery (of which reading
  the credential for the signing-key cache key ~0.15 ms), the Webhook node's ~0.10 ms. The rest
  of each delivery — n8n's webhook routing, creating, running and saving the execution in sqlite —
  is the same for both and is what the ~12–19 ms latency and ~50–80 executions/s consist of.
- Since issue #12 the signing-key cache is keyed by the credential's id and the webhook id, so a
  delivery reads no credential; the credential is decrypted only when a key is fetched (at most
  every 10 minutes, or after a failed verification). The same profile then shows \`webhook()\` at
  ~0.23 ms per delivery (inclusive, 200 µs sampling), about half of it under the signature
  check.
- Both profiles side by side (200 deliveries each, same machine, one after the other; repeated
  on e6a5a7a): n8n's process is busy ~11.5 ms per delivery for the trigger's workflow and
  ~9.3 ms for the Webhook node's, and the difference is almost all database work (TypeORM
  +0.5 ms, \`(program)\` +0.5 ms, sqlite3 and luxon dates +0.3 ms), not the package (its own
  functions: ~0.06 ms self time per delivery). n8n runs a credential permission check with a
  database query before every execution of a workflow that has a credentialed node
  (\`credentials-permission-checker\`, called from \`WorkflowRunner.run\`); the plain Webhook
  node's workflow has none. That cost comes with any trigger that needs a credential, and node
  code cannot avoid it: the bench's reference variant, the Webhook node with Header Auth, pays it
  too, and the trigger is as fast as that or faster (see B4).
`;

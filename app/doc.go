// Command app is Omission's go-app program. Compiled to WebAssembly it is the
// site that runs in the browser: the visualiser (app/page), the article and
// its embeds (app/article). Natively it serves and generates that site and
// prints reports (cli.go).
//
// It is thin: main.go holds the routes (/, /article and /embed), cli.go the
// commands, and each command has a file of its own. The rooms are the
// packages below, each with a doc.go that says what it owns and what it may
// import. This program may import every package of the project; no package
// imports it.
//
// # Commands
//
//	app report [-json] [-measured FILE] [-vs QUERY2] QUERY
//	app report -tool NAME QUERY
//	app report [-json] -sweep FIELD:FROM..TO/N QUERY
//	app report [-json] -fit FILE [rate=R]
//	app export -format hgrm|hlog|csv [-recording NAME] [-sweep SPEC] QUERY
//	app experiment [-json] [-out DIR] [-with TOOL,…] QUERY
//	app static [-web DIR] [-out DIR] [-prefix /sub/path]
//	app serve [-addr 127.0.0.1:8000] [-web DIR] [-out DIR]
//
// QUERY is a query (sim/QUERY.md) or a whole share URL. The commands exit
// with status 0 on success, 1 when a check failed, and 2 for invalid input,
// with a message on stderr; a bad query's message names each bad field, its
// value and the range allowed.
//
// report prints the page's headline in words first (view.Said: the run's
// summary line, each card's number with what is said beside it, the
// story), then each recording's count, mean, percentiles, maximum and
// count above the threshold ("none" where no call was answered, and under
// the table why a ratio is missing), the clients' requests planned and
// sent, and every check. Its JSON (-json) is sim.Report, with the same
// words under headline.{summary, cards[].{key, label, value, sub}, story,
// claim}: query (canonical),
// recordings.<name>.{count, mean_ns, p50_ns, p90_ns, p99_ns, p99_9_ns,
// p99_99_ns, max_ns, above, above_share}, clients.<name>.{planned, sent,
// stalls, last_completion_ns} and checks[].{id, kind, quantity, formula,
// substituted, want, got, pass}; sim/QUERY.md lists what it adds for the
// event engine. -tool and tools= are app/tools's, -measured app/measure's,
// -fit app/fit's, and experiment is app/experiment's: see each package.
//
// report -vs QUERY2 QUERY, or a share URL whose vs= holds the second query
// as the page's comparison writes it, runs both, prints the second run's
// report after the first, then the differences, second less first, per
// recording. The JSON gains vs (the second report, same shape) and
// delta.<recording>.{count, mean_ns, p50_ns, …, max_ns, above}.
//
// report -sweep SPEC QUERY, or a share URL whose sweep= holds the spec
// (sim/QUERY.md, "Sweeps"), runs the query once per point and prints a row
// per point: the field's value, each recording's p50, p99, p99.9, max, mean
// (µs) and share above the threshold, and the paced client's requests never
// sent, or a refused point's reason. Its JSON is sweep.{field, spec, query,
// value, points[]}: each point has its value and canonical query and either
// the keys of that query's own report, equal to the digit (hash, engine,
// exact, planned, clients, recordings, passed, failed), or refused. A
// refused point does not stop the others; the command exits 1 when a point's
// check fails. export -format csv -sweep writes field, value, x, query,
// recording, count, mean_ns, p50_ns, …, max_ns, above, above_share,
// never_sent, refused: a row per point and recording (-recording NAME keeps
// one), x the value as a number (ns, requests per second or the count).
//
// # The site
//
// static writes the site into static/ (or -out): go-app's generated pages,
// /article/ and /embed/ as index.html files, the web resources with the
// built app.wasm and fit.wasm (make wasm), local icons and the toolchain's
// wasm_exec.js. -prefix serves it under a sub-path. serve writes the same
// site and serves it, so what runs locally is what a static host serves;
// python3 -m http.server --directory static serves it too, uncompressed.
// static/ is build output and is not committed.
//
// Beside each text file (html, js, css, json, svg, webmanifest) and the
// wasm files, static writes a brotli .br and a gzip .gz copy for hosts that
// serve precompressed files (nginx gzip_static and brotli_static, Caddy's
// precompressed). serve sends them itself when the browser's
// Accept-Encoding asks, with Vary: Accept-Encoding and one strong ETag per
// encoding, so app.wasm travels as 1.8 MB (brotli) instead of 11.5 MB. go-app's fixed
// addresses (the pages, app.js, app.css, wasm_exec.js, the manifest and the
// service worker) are sent no-cache: kept, but revalidated every time. Every
// file under /web/ is referenced as /web/<file>?v=<its content hash> and
// cached for a year under that address, which changes with its content.
//
// The site's version is a hash of what it ships, so the service worker's
// cache is renewed exactly when something changed; after one visit the site
// works offline, share URLs included. Every page carries a
// Content-Security-Policy that allows only the site's own scripts, styles
// and WebAssembly, and nothing from a URL or an imported file is executed or
// inserted as markup. How app.wasm is kept under its size budget is
// app/internal/wasmbuild's.
//
// # From URL to pixels
//
// The page reads the query once as a ui.Address (app/page's querystate.go:
// the controls' text, a sim.Config or a message per bad field) and posts it
// to the worker (app/worker). The worker runs it (app/compute over sim),
// formats it once (view.View), and answers with progress, then the view,
// then each chart's SVG (app/charts), then what goes beside the run
// (app/tools, app/measure). The page hands the view to its components as
// props, and the result to the animation and the charts panel as go-app
// states (app/ui). As the reader edits, the page writes the URL back, so
// loading that URL shows the same view. Every page writes its URL through
// ui.Address: the simulator's fields in their order, then the page's keys,
// with the simulator's escaping.
//
// # Where to add things
//
// Each concept is written once, in one table:
//
//   - a query field: a row of sim's fieldTable (go doc ./sim);
//   - a chart: a row of kinds in app/charts's render.go and a file with its
//     draw function; the embed's allowed figures come from it;
//   - a tool: its descriptor in a file of its own in app/tools, with its row
//     in the registry (and in runs, when the experiment runs it), and the
//     reader of its files beside it (reader_NAME.go, a row of readers), with
//     the mechanics it follows in sim/profile*.go;
//   - the address of every page: ui.Address, read once and written once;
//   - durations for people: app/units only (the animation's readouts
//     included); query syntax (100us) is sim.FormatDuration;
//   - a result's words: view.View, which the page's table and the report
//     command's text read; the JSON is sim.Report; what is said of failed
//     calls, the cards and the summary line: view's said.go, for both.
//
// # Packages
//
// Each package and the project packages it may import ("none": no package
// of the project), as doors_test.go's doors map has them. TestPackageDoors
// fails when a file imports past its door; TestDocDoors fails when this
// table, or a package's own "may import" sentence, differs from the map.
//
//	sim                     the model; may import: none
//	app/units               numbers for people; may import: none
//	app/charts              the charts (gonum/plot); may import: units, sim
//	app/ui                  what every page shares; may import: charts, units, sim
//	app/view                a result formatted once; may import: units, sim
//	app/compute             runs queries for the pages; may import: units, view, sim
//	app/measure             HdrHistogram files out and in, CSV out, tools' files by readers; may import: sim
//	app/tools               each real load generator, whole; may import: measure, units, sim
//	app/experiment          the real server, clients and tools; may import: measure, tools, units, sim
//	app/fit                 the model fitted to a file; may import: fitmsg, measure, tools, units, sim
//	app/fitmsg              the page and the fit worker's messages; may import: none
//	app/wire                the protocol of the page's two workers; may import: none
//	app/anim                the animation; may import: ui, view, units, charts, sim
//	app/article             the article and embeds; may import: anim, charts, compute, ui, units, view, sim
//	app/worker              runs and charts off the main thread; may import: charts, compute, measure, tools, ui, view, wire, sim
//	app/page                the visualiser; may import: anim, charts, compute, fitmsg, measure, tools, ui, units, view, worker, sim
//	app/internal/wasmbuild  builds app.wasm and fit.wasm; may import: none
//	app/internal/floorpage  the stack's floor, one go-app component (make bench); may import: none
//	app/internal/wasmsize   a wasm binary's code bytes by package; may import: none
//	app/internal/fitwasm    fit.wasm, the page's fit worker; may import: fit, fitmsg, measure, wire, sim
//	app                     this program; may import: every package
package main

// Command app is Omission's go-app program. Compiled to WebAssembly it is the
// site that runs in the browser: the visualiser (app/page), the article and
// its embeds (app/article). Natively it serves and generates that site and
// prints reports: its command line is app/cli's (go doc ./app/cli), the
// site's builder and server app/site's (go doc ./app/site).
//
// It is thin: main.go registers the routes (app/routes: /, /article and
// /embed), and main_native.go hands the command line to cli.Main. The tests
// of the built site in the browser are app/browser's. The rooms are the
// packages below, each with a doc.go that says what it owns and what it may
// import. No package imports this program.
//
// # From URL to pixels
//
// The page reads the query once as a address.Address (app/page's querystate.go:
// the controls' text, a sim.Config or a message per bad field) and posts it
// to the worker (app/worker: app.wasm's module, which web/page.js runs in a
// Web Worker as soon as it is compiled). The worker runs it (app/compute over sim),
// formats it once (view.View), and answers with progress, then the view,
// then each chart's SVG (app/charts), then what goes beside the run
// (app/tools, app/measure). The page hands the view to its components as
// props, and the result to the animation and the charts panel as go-app
// states (app/ui). As the reader edits, the page writes the URL back, so
// loading that URL shows the same view. Every page writes its URL through
// address.Address: the simulator's fields in their order, then the page's keys,
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
//     the mechanics it follows in sim/profile;
//   - the address of every page: address.Address, read once and written once;
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
//	sim                     the model; may import: sim/internal/hook, sim/internal/stall
//	sim/internal/hook       what sim lends its subpackages, unexported; may import: none
//	sim/internal/simtest    the tests' shared helpers and generators, for tests only; may import: sim, sim/internal/hook
//	sim/internal/stall      the stall schedule and the stall model over it; may import: none
//	sim/sweep               one field moved over a range, a run per point; may import: sim, sim/internal/hook
//	sim/profile             the load generators' mechanics, played against the server; may import: sim, sim/internal/hook
//	sim/window              the animation's windows of a run, summarised; may import: sim, sim/internal/hook, sim/internal/stall
//	app/units               numbers for people; may import: none
//	app/charts              the charts (gonum/plot); may import: jsonread, units, sim, sim/sweep
//	app/ui                  what every page shares; may import: address, charts, units, yield, sim
//	app/view                a result formatted once; may import: jsonread, units, sim
//	app/compute             runs queries for the pages; may import: units, view, sim, sim/sweep
//	app/measure             HdrHistogram files out and in, CSV out, tools' files by readers; may import: sim
//	app/tools               each real load generator, whole; may import: measure, units, sim, sim/profile
//	app/experiment          the real server, clients and tools; may import: measure, tools, units, sim
//	app/fit                 the model fitted to a file; may import: fitmsg, measure, tools, units, sim
//	app/fitmsg              the page and the fit worker's messages; may import: none
//	app/address             the pages' URL query and keys; may import: sim
//	app/yield               room for the browser between pieces of work; may import: none
//	app/jsonread            JSON read without reflection (the view, the charts); may import: none
//	app/wire                the protocol of the page's two workers; may import: none
//	app/anim                the animation; may import: address, charts, ui, units, view, sim, sim/window
//	app/article             the article and embeds; may import: address, anim, charts, compute, jsonread, ui, units, view, sim, sim/sweep, sim/window
//	app/worker              runs and charts off the main thread; may import: address, charts, compute, jsonread, measure, tools, view, wire, yield, sim, sim/sweep
//	app/page                the visualiser; may import: address, anim, charts, compute, fitmsg, jsonread, measure, tools, ui, units, view, worker, yield, sim, sim/sweep
//	app/internal/wasmbuild  builds app.wasm and fit.wasm; may import: none
//	app/internal/stackfloor  the stack's floor, one go-app component (make bench); may import: none
//	app/internal/wasmsize   a wasm binary's code bytes by package; may import: none
//	app/internal/rawget     the built site tests' raw HTTP client; may import: none
//	app/internal/rivalratio make bench's ratios to the rival; may import: none
//	app/internal/matchtest  hand line matchers held to their regexps, for tests; may import: none
//	app/internal/jsonfill   every field filled, for the tests of JSON readers; may import: none
//	app/internal/k6gauge    k6 files with their vus gauge rewritten, for tests; may import: none
//	app/internal/fitwasm    fit.wasm, the page's fit worker; may import: fit, fitmsg, measure, wire, sim
//	app/site                the static site, built and served; may import: none
//	app/cli                 the command line; may import: address, experiment, fit, measure, site, tools, ui, units, view, sim, sim/sweep
//	app/routes              the pages go-app serves; may import: article, compute, page
//	app/browser             the built site's tests in headless Chromium; may import: none
//	app                     this program; may import: cli, compute, routes, worker
package main

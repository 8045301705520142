// Command app is Omission's go-app program. Compiled to WebAssembly it is the
// site that runs in the browser: the visualiser (app/page), the article and
// its embeds (app/article). Natively it serves and generates that site and
// prints reports (cli.go).
//
// It may import every package of the project; no package imports it. The
// packages, and what each may import (TestPackageDoors holds them to it):
//
//	sim                 the model: no project package
//	app/units           numbers for people: none
//	app/charts          the four charts (gonum/plot): units, sim
//	app/ui              what every page shares: charts, units, sim
//	app/view            a result formatted once: units, sim
//	app/compute         runs queries for the pages: units, view, sim
//	app/measure         HdrHistogram files out and in, tools' output in: sim
//	app/tools           each real load generator, whole: measure, units, sim
//	app/experiment      the real server, clients and tools on loopback: measure, tools, units, sim
//	app/fit             the model fitted to a measured file, what it hid: fitmsg, measure, tools, units, sim
//	app/fitmsg          what the page and the fit worker say to each other: none
//	app/anim            the animation: ui, view, units, charts, sim
//	app/article         the article and embeds: anim, charts, compute, ui, units, view, sim
//	app/worker          runs and charts off the main thread: charts, compute, measure, tools, ui, view, sim
//	app/page            the visualiser: anim, charts, compute, fitmsg, measure, tools, ui, units, view, worker, sim
//	app/internal/wasmbuild  builds app.wasm and fit.wasm: none
//	app/internal/fitwasm    fit.wasm, the page's fit worker: fit, fitmsg, measure, sim
package main

// Command fitwasm is fit.wasm, the fit of a measured file (app/fit) for
// the page, loaded only when the reader asks "What did this test hide?":
// app.wasm does not hold the fit. It runs in a Web Worker
// (web/worker.js starts it) and answers each request, a
// fitmsg.Request as a JSON string, with a fitmsg.Answer as a JSON string.
// It is plain Go and syscall/js, without go-app, and links no net/http;
// make wasm builds it through app/internal/wasmbuild into web/fit.wasm
// (5.8 MB, 1.61 MB after gzip, 1.19 MB brotli).
//
// It may import app/fit, app/fitmsg, app/measure, app/wire (the workers'
// protocol) and sim.
//
// # On the page
//
// Beside a file the reader imported, "What did this test hide?" fits it and
// shows the headline (the p99 the test recorded, the open loop's on the same
// server, the requests never sent), the fit table, each tool's p99, what the
// file leaves free, and "Open the fitted run", a share URL of the fitted
// query. A rate typed beside the file ("the rate it was asked for") pins a
// rate the file leaves free, as rate=R does for report -fit; a bad one is
// refused with the field and its range.
//
// web/page.js keeps the text of the files given and starts the worker when
// the reader first reaches for a file (clicks the file chooser, drags a file
// over the page, opens the paste box) or gives one, never when the page
// loads alone, so fit.wasm is fetched and compiled while the reader picks the
// file and looks at it; the button's click sends it the file. While it
// waits, the worker warms up: it fits a small recording of its own
// (warm.hgrm) and throws the fit away, so that the code the browser compiled
// plain at first is compiled again, optimised, before the reader's fit runs.
// A request that comes meanwhile stops the warm-up within 10 ms
// (fit.Options.Abort). On the build machine the first fit asked 0.7 s or 2 s
// after the file was given went from about 1.0 s to about 0.9 s, and one
// asked 0.3 s after it was not slowed.
//
// It also answers checks: the page asks, for each file the reader gives,
// whether the file is whole (fitmsg.Request.Check, fit.Lacks), because
// app.wasm reads the file and shows its numbers without that check. A check
// is answered before any fit and stops the warm-up, which starts again
// after it.
//
// fit.wasm answers with the numbers written as report -fit writes them and
// the panel laid out as nodes, which the page renders with the elements and
// attributes it allows (app/fitmsg: a link only to a path of the site), every
// text a text node (app/page's fit.go, about 3 kB of app.wasm after gzip).
// The site ships fit.wasm hashed, compressed and precached for offline use.
//
// make bench prints, for the bench preset's open-loop .hgrm,
// fit.hgrm.browser_shown_ms (the click to the fit shown: 0.7–1.1 s on the
// build machine under load), fit.hgrm.browser_ms (to each tool's p99, the
// second step: 1.2–1.5 s), fit.hgrm.browser_first_ms for a click at once on a
// fresh page (fit.wasm still loading) and fit.hgrm.browser_first_after_2s_ms
// for one 2 s after the file was given.
package main

// Package compute runs queries for the pages, in the one way each needs: a
// Job simulates in slices that a single-threaded caller (the browser) can
// interleave with its own work, and a Cache runs a whole query at once and
// keeps the last few results (the article's figures and the embeds).
//
// It may import sim, sim/sweep, app/view and app/units only: no go-app, so it runs the same natively, in
// the page and in a Web Worker. Settings are passed in; it keeps no state a
// caller could overwrite.
package compute
